import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BUILD_HASH_FILE, buildInputsHash, buildIsCurrent } from "../../scripts/build.ts";

/** A project root with a few build inputs and a bundle recorded as built from them. */
function builtProject(root: string): void {
  const files: Record<string, string> = {
    "app/root.tsx": "export default function Root() {}\n",
    "server/main.ts": "console.log('serving');\n",
    "package.json": '{ "name": "fixture" }\n',
    "node_modules/.package-lock.json": '{ "packages": {} }\n',
    "vite.config.ts": "export default {};\n",
    "build/server/index.js": "export {};\n",
  };
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content);
  }
  writeFileSync(path.join(root, BUILD_HASH_FILE), `${buildInputsHash(root)}\n`);
}

describe("npm start's rebuild decision", () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), "bastion-build-"));
    builtProject(root);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("keeps a bundle whose inputs are unchanged, even when their files were touched", () => {
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(root, "app/root.tsx"), later, later);
    utimesSync(path.join(root, "node_modules/.package-lock.json"), later, later);
    expect(buildIsCurrent(root)).toBe(true);
  });

  it("rebuilds when a source changes, appears or goes", () => {
    writeFileSync(path.join(root, "server/main.ts"), "console.log('serving again');\n");
    expect(buildIsCurrent(root)).toBe(false);
    builtProject(root);
    writeFileSync(path.join(root, "app/new-route.tsx"), "export {};\n");
    expect(buildIsCurrent(root)).toBe(false);
    rmSync(path.join(root, "app/new-route.tsx"));
    expect(buildIsCurrent(root)).toBe(true);
  });

  it("rebuilds when the installed dependencies change", () => {
    writeFileSync(path.join(root, "node_modules/.package-lock.json"), '{ "packages": { "node_modules/a": {} } }\n');
    expect(buildIsCurrent(root)).toBe(false);
  });

  it("rebuilds when there is no bundle or no record of what it was built from", () => {
    rmSync(path.join(root, BUILD_HASH_FILE));
    expect(buildIsCurrent(root)).toBe(false);
    builtProject(root);
    rmSync(path.join(root, "build/server/index.js"));
    expect(buildIsCurrent(root)).toBe(false);
  });

  it("tells a renamed file from an unchanged one", () => {
    const before = buildInputsHash(root);
    rmSync(path.join(root, "app/root.tsx"));
    writeFileSync(path.join(root, "app/layout.tsx"), "export default function Root() {}\n");
    expect(buildInputsHash(root)).not.toBe(before);
  });
});
