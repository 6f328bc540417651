import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { precompressAssets } from "../../scripts/precompress-assets.ts";

describe("the build's precompressed client assets", () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(path.join(tmpdir(), "bastion-assets-"));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  const write = (name: string, content: string | Buffer) => {
    mkdirSync(path.dirname(path.join(directory, name)), { recursive: true });
    writeFileSync(path.join(directory, name), content);
  };

  it("writes brotli and gzip copies that decode to the file", () => {
    const css = ".card { color: var(--fg); padding: 1rem; }\n".repeat(100);
    write("app-abc123.css", css);
    write("nested/chunk-def456.js", "export const answer = 42;\n".repeat(80));

    const written = precompressAssets(directory);

    expect(written.map((asset) => asset.file).sort()).toEqual([
      "app-abc123.css",
      path.join("nested", "chunk-def456.js"),
    ]);
    const br = readFileSync(path.join(directory, "app-abc123.css.br"));
    const gzip = readFileSync(path.join(directory, "app-abc123.css.gz"));
    expect(brotliDecompressSync(br).toString()).toBe(css);
    expect(gunzipSync(gzip).toString()).toBe(css);
    expect(br.length).toBeLessThan(css.length / 10);
    expect(existsSync(path.join(directory, "nested/chunk-def456.js.br"))).toBe(true);
  });

  it("leaves small files, compressed formats and incompressible content alone", () => {
    write("tiny-1.js", "export {};\n");
    write("logo-2.png", randomBytes(4096));
    write("random-3.js", randomBytes(4096));

    const written = precompressAssets(directory);

    expect(written).toEqual([]);
    for (const name of ["tiny-1.js", "logo-2.png", "random-3.js"]) {
      expect(existsSync(path.join(directory, `${name}.br`)), name).toBe(false);
      expect(existsSync(path.join(directory, `${name}.gz`)), name).toBe(false);
    }
  });
});
