import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

/**
 * Brotli and gzip copies of the built client assets, written beside each file
 * (`app-….css.br`, `app-….css.gz`) for the server to send as they are
 * (docs/decisions/021-precompressed-assets.md). Compressed once, at the highest levels,
 * instead of by the compression middleware on every request.
 */

/** Text formats worth compressing; images and fonts are compressed formats already. */
const COMPRESSIBLE = new Set([".js", ".mjs", ".css", ".svg", ".json", ".webmanifest", ".txt", ".html", ".xml"]);
/** The compression middleware's threshold: smaller answers are sent as they are. */
const MIN_BYTES = 1024;

export interface PrecompressedAsset {
  file: string;
  bytes: number;
  br?: number;
  gzip?: number;
}

/** Writes the compressed copies of every compressible file under `directory`; returns the files that got one. */
export function precompressAssets(directory: string): PrecompressedAsset[] {
  const written: PrecompressedAsset[] = [];
  for (const name of readdirSync(directory, { recursive: true, encoding: "utf8" })) {
    const file = path.join(directory, name);
    if (!COMPRESSIBLE.has(path.extname(name)) || !statSync(file).isFile()) continue;
    const body = readFileSync(file);
    if (body.length < MIN_BYTES) continue;
    const asset: PrecompressedAsset = { file: name, bytes: body.length };
    const br = brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    });
    const gzip = gzipSync(body, { level: constants.Z_BEST_COMPRESSION });
    // A copy no smaller than the file would only cost the client the decoding.
    if (br.length < body.length) {
      writeFileSync(`${file}.br`, br);
      asset.br = br.length;
    }
    if (gzip.length < body.length) {
      writeFileSync(`${file}.gz`, gzip);
      asset.gzip = gzip.length;
    }
    if (asset.br !== undefined || asset.gzip !== undefined) written.push(asset);
  }
  return written;
}
