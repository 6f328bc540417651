import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * `npm start`: builds the production bundle when there is none, or when the
 * sources are newer than it (after a `git pull`, say), then starts the server.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BUILD_MARKER = path.join(ROOT, "build/server/index.js");
const BUNDLED_SOURCES = ["app", "server", "vite.config.ts", "react-router.config.ts", "package-lock.json"];

function newestModification(entry: string): number {
  const stats = statSync(entry);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(entry).reduce(
    (newest, name) => Math.max(newest, newestModification(path.join(entry, name))),
    stats.mtimeMs,
  );
}

function buildIsCurrent(): boolean {
  if (!existsSync(BUILD_MARKER)) return false;
  const builtAt = statSync(BUILD_MARKER).mtimeMs;
  return BUNDLED_SOURCES.map((name) => path.join(ROOT, name))
    .filter((entry) => existsSync(entry))
    .every((entry) => newestModification(entry) <= builtAt);
}

if (!buildIsCurrent()) {
  console.log("Building the production bundle…");
  const result = spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

await import("../server/main.ts");
