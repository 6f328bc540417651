import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * `postinstall`: npm checks every package's `engines` against the Node that runs npm
 * itself (often an older system Node), while the project runs on the Node pinned in
 * node_modules. The project's .npmrc keeps npm's own check quiet; this one checks the
 * installed packages against the Node that will run them and says so in one line, or
 * names each package that does not accept it.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

interface LockEntry {
  version?: string;
  optional?: boolean;
  engines?: { node?: string } | string[];
}

/** npm's own semver (the one its engine check uses), found beside the npm that runs this script. */
function npmSemver(): { satisfies: (version: string, range: string, options: object) => boolean } {
  const npmCli = process.env.npm_execpath;
  if (!npmCli) throw new Error("scripts/check-engines.ts runs as npm's postinstall (npm_execpath is not set)");
  return createRequire(npmCli)("semver");
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(path.join(ROOT, file), "utf8")) as T;
}

const semver = npmSemver();
const root = readJson<{ name: string; version: string; engines?: { node?: string } }>("package.json");
// The hidden lockfile lists what this install actually put in node_modules.
const installed = readJson<{ packages: Record<string, LockEntry> }>("node_modules/.package-lock.json").packages;

const checked = [
  { name: `${root.name}@${root.version}`, engines: root.engines },
  ...Object.entries(installed).map(([location, entry]) => ({
    name: `${location.slice(location.lastIndexOf("node_modules/") + "node_modules/".length)}@${entry.version}`,
    // npm does not warn about optional packages either: it leaves them out instead.
    engines: entry.optional ? undefined : entry.engines,
  })),
];
const refusing = checked.flatMap(({ name, engines }) => {
  // A few old packages still write engines as an array, which npm ignores too.
  const range = engines && !Array.isArray(engines) ? engines.node : undefined;
  return range && !semver.satisfies(process.version, range, { includePrerelease: true }) ? [{ name, range }] : [];
});

for (const { name, range } of refusing) {
  console.warn(`${name} requires Node ${range}, but this project runs on Node ${process.version}`);
}
if (refusing.length === 0) {
  // npm's user agent names the Node that runs npm ("npm/11.19.1 node/v20.20.2 linux x64 …").
  const npmNode = process.env.npm_config_user_agent?.match(/\bnode\/(v\S+)/)?.[1];
  const besideNpm = npmNode && npmNode !== process.version ? ` (npm itself runs on Node ${npmNode})` : "";
  console.log(
    `Bastion runs on Node ${process.version} from node_modules${besideNpm}: all ${checked.length} packages accept it.`,
  );
}
