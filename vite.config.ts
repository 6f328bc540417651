import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { noNodeBuiltInsInTheBrowser } from "./scripts/browser-build-guard.ts";
import { minifyEnhancements } from "./scripts/minify-enhancements.ts";

export default defineConfig({
  // The server bundle's entry is our handler factory (not React Router's default
  // build module), so that the router context keys and the routes share one copy
  // of every module. See docs/decisions/001-react-router-framework-mode.md.
  environments: {
    ssr: { build: { rollupOptions: { input: "./app/request-handler.server.ts" } } },
  },
  resolve: { tsconfigPaths: true },
  // Bundled into the server build, so that only the icons and primitives the app uses
  // are kept: left external, Node loads every icon and every Radix primitive, about
  // 11 MB of heap the server would hold for nothing (decision 018).
  ssr: { noExternal: ["lucide-react", "radix-ui", /^@radix-ui\//] },
  plugins: [tailwindcss(), reactRouter(), noNodeBuiltInsInTheBrowser(), minifyEnhancements()],
});
