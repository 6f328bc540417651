// First: it must run before any full garbage collection (see the module).
import "../server/runtime/tick-object-shape.ts";
import { build, buildIsCurrent, PROJECT_ROOT } from "./build.ts";

/**
 * `npm start`: builds the production bundle when there is none or when what it is built
 * from changed (after a `git pull` or an upgrade, say), then starts the server.
 */

if (!buildIsCurrent(PROJECT_ROOT)) {
  console.log("Building the production bundle…");
  build(PROJECT_ROOT);
}

await import("../server/main.ts");
