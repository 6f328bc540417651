import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type PrecompressedAsset, precompressAssets } from "./precompress-assets.ts";

/**
 * `npm run build`: builds the production bundle with React Router and records beside it
 * a hash of what the bundle is built from (sources, configuration, installed
 * dependencies, NODE_ENV). `npm start` compares that hash with the current inputs and
 * rebuilds only when they differ: timestamps would not do, since a fresh clone, a
 * `git checkout` or an `npm install` that changed nothing touch files without changing them.
 */

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The recorded hash; React Router empties build/client and build/server, not build/ itself. */
export const BUILD_HASH_FILE = "build/inputs.sha256";

/**
 * Folders and files the bundle is built from. The installed dependencies are named by
 * npm's hidden lockfile, rewritten by every install that changes node_modules.
 */
const BUILD_INPUTS = [
  "app",
  "server",
  "public",
  "package.json",
  "node_modules/.package-lock.json",
  "tsconfig.json",
  "vite.config.ts",
  "react-router.config.ts",
  "scripts/build.ts",
  "scripts/browser-build-guard.ts",
  "scripts/minify-enhancements.ts",
  "scripts/precompress-assets.ts",
];

function filesUnder(root: string, entry: string): string[] {
  const absolute = path.join(root, entry);
  if (!existsSync(absolute)) return [];
  if (!statSync(absolute).isDirectory()) return [entry];
  return readdirSync(absolute)
    .sort()
    .flatMap((name) => filesUnder(root, path.join(entry, name)));
}

/** SHA-256 over the path and content of every build input under root, and the NODE_ENV the build runs with. */
export function buildInputsHash(root: string, nodeEnv = process.env.NODE_ENV ?? "production"): string {
  const hash = createHash("sha256").update(`NODE_ENV=${nodeEnv}\0`);
  for (const file of BUILD_INPUTS.flatMap((entry) => filesUnder(root, entry))) {
    hash
      .update(`${file}\0`)
      .update(readFileSync(path.join(root, file)))
      .update("\0");
  }
  return hash.digest("hex");
}

/** Whether root's build/ holds a bundle built from the current inputs. */
export function buildIsCurrent(root: string): boolean {
  const hashFile = path.join(root, BUILD_HASH_FILE);
  if (!existsSync(path.join(root, "build/server/index.js")) || !existsSync(hashFile)) return false;
  return readFileSync(hashFile, "utf8").trim() === buildInputsHash(root);
}

/** Builds the bundle; records the hash of the inputs as they were when the build started. */
export function build(root: string): void {
  const inputsHash = buildInputsHash(root);
  const reactRouter = path.join(root, "node_modules/@react-router/dev/bin.cjs");
  const result = spawnSync(process.execPath, [reactRouter, "build"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
  const assets = precompressAssets(path.join(root, "build/client/assets"));
  const kilobytes = (size: (asset: PrecompressedAsset) => number | undefined) =>
    Math.round(assets.reduce((total, asset) => total + (size(asset) ?? 0), 0) / 1024);
  console.log(
    `Precompressed ${assets.length} client assets: ${kilobytes((asset) => asset.bytes)} KB, ` +
      `${kilobytes((asset) => asset.br)} KB as brotli, ${kilobytes((asset) => asset.gzip)} KB as gzip`,
  );
  writeFileSync(path.join(root, BUILD_HASH_FILE), `${inputsHash}\n`);
}

if (import.meta.main) build(PROJECT_ROOT);
