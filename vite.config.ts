import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  // The server bundle's entry is our handler factory (not React Router's default
  // build module), so that the router context keys and the routes share one copy
  // of every module. See docs/decisions/001-react-router-framework-mode.md.
  environments: {
    ssr: { build: { rollupOptions: { input: "./app/request-handler.server.ts" } } },
  },
  resolve: { tsconfigPaths: true },
  plugins: [tailwindcss(), reactRouter()],
});
