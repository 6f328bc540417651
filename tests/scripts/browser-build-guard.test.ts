import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "vite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { noNodeBuiltInsInTheBrowser } from "../../scripts/browser-build-guard.ts";

/** Builds `root`'s index.html for the browser with the guard, as vite.config.ts does. */
function browserBuild(root: string) {
  return build({
    root,
    configFile: false,
    logLevel: "silent",
    plugins: [noNodeBuiltInsInTheBrowser()],
    build: { outDir: path.join(root, "dist"), write: false },
  });
}

describe("the browser build's guard against Node built-ins", () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), "bastion-browser-guard-"));
    writeFileSync(path.join(root, "index.html"), '<script type="module" src="./page.ts"></script>\n');
    // A server module the page takes a constant from, as a route module might.
    writeFileSync(
      path.join(root, "server-module.ts"),
      'import { randomInt } from "node:crypto";\nexport const LIMIT = 5;\nexport const draw = () => randomInt(10);\n',
    );
    writeFileSync(path.join(root, "limits.ts"), "export const LIMIT = 5;\n");
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("fails the build when a module the browser takes in imports a Node built-in, naming both", async () => {
    writeFileSync(path.join(root, "page.ts"), 'import { LIMIT } from "./server-module.ts";\nconsole.log(LIMIT);\n');
    await expect(browserBuild(root)).rejects.toThrow(
      /server-module\.ts imports node:crypto, and the browser's bundle takes it in/,
    );
  });

  it("builds when what the browser needs comes from a module without them", async () => {
    writeFileSync(path.join(root, "page.ts"), 'import { LIMIT } from "./limits.ts";\nconsole.log(LIMIT);\n');
    await expect(browserBuild(root)).resolves.toBeDefined();
  });
});
