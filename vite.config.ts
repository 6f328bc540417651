import { builtinModules } from "node:module";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";

/**
 * Fails the browser build when one of the project's modules in it imports a Node
 * built-in. React Router drops loaders, actions and the imports only they use from
 * the browser's route modules; what is left reaches the bundle, and a server module
 * taken in that way (a constant imported from it, say) brings its imports along. Vite
 * would stub the built-in out with a warning that reads as a failure on a newcomer's
 * first `npm start`, and the code would break in the browser if it ever ran.
 */
function noNodeBuiltInsInTheBrowser(): Plugin {
  return {
    name: "bastion:no-node-built-ins-in-the-browser",
    enforce: "pre",
    applyToEnvironment: (environment) => environment.name === "client",
    resolveId(source, importer) {
      const builtIn = source.startsWith("node:") || builtinModules.includes(source);
      if (builtIn && importer && !importer.includes("/node_modules/")) {
        this.error(
          `${importer} imports ${source}, and the browser's bundle takes it in: import what the browser needs from a module without Node built-ins`,
        );
      }
      return null;
    },
  };
}

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
  plugins: [tailwindcss(), reactRouter(), noNodeBuiltInsInTheBrowser()],
});
