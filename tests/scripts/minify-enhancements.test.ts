import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { build, type Rollup } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { minifyEnhancements } from "../../scripts/minify-enhancements.ts";

/** A page script as app/enhancements holds them: readable, with comments, reached by `?url`. */
const ENHANCEMENT = `/**
 * A comment that explains, as the real file's do.
 */
function closeWhenFocusLeaves(details) {
  // Only when the focus goes elsewhere on the page.
  details.open = false;
}
document.addEventListener("focusout", (event) => closeWhenFocusLeaves(event.target));
`;

describe("the browser build's minifying of the public pages' script", () => {
  let root: string;
  let assets: Rollup.OutputAsset[];

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), "bastion-minify-"));
    mkdirSync(path.join(root, "app/enhancements"), { recursive: true });
    writeFileSync(path.join(root, "app/enhancements/page.js"), ENHANCEMENT);
    // Another file reached by ?url, which must be left as it is.
    writeFileSync(path.join(root, "notes.js"), "/* kept */\nexport const kept = 1;\n");
    writeFileSync(path.join(root, "index.html"), '<script type="module" src="./main.ts"></script>\n');
    writeFileSync(
      path.join(root, "main.ts"),
      'import page from "./app/enhancements/page.js?url";\nimport notes from "./notes.js?url";\nconsole.log(page, notes);\n',
    );
    const output = (await build({
      root,
      configFile: false,
      logLevel: "silent",
      plugins: [minifyEnhancements()],
      build: { outDir: path.join(root, "dist"), write: false, assetsInlineLimit: 0 },
    })) as Rollup.RollupOutput;
    assets = output.output.filter((file): file is Rollup.OutputAsset => file.type === "asset");
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const asset = (original: string) => {
    const found = assets.find((file) => file.originalFileNames.includes(original));
    if (!found) throw new Error(`no asset for ${original}`);
    return String(found.source);
  };

  it("ships app/enhancements scripts minified, without their comments, still doing the same", () => {
    const shipped = asset("app/enhancements/page.js");
    expect(shipped.length).toBeLessThan(ENHANCEMENT.length / 2);
    expect(shipped).not.toContain("comment");
    expect(shipped).toContain(`addEventListener(\`focusout\``);
    expect(shipped).toContain(".open=!1");
  });

  it("leaves other files reached by ?url as they are", () => {
    expect(asset("notes.js")).toBe("/* kept */\nexport const kept = 1;\n");
  });
});
