import { builtinModules } from "node:module";
import type { Plugin } from "vite";

/**
 * Fails the browser build when one of the project's modules in it imports a Node
 * built-in. React Router drops loaders, actions and the imports only they use from
 * the browser's route modules; what is left reaches the bundle, and a server module
 * taken in that way (a constant imported from it, say) brings its imports along. Vite
 * would stub the built-in out with a warning that reads as a failure on a newcomer's
 * first `npm start`, and the code would break in the browser if it ever ran.
 */
export function noNodeBuiltInsInTheBrowser(): Plugin {
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
