import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { stemOf } from "./names.ts";
import { findMediaByPaths, findMediaByStems, type MediaRecord } from "./records.ts";
import type { MediaStorage } from "./storage/storage.ts";

/**
 * What the public reader needs to show an image of our media library: its dimensions
 * (no layout shift), srcsets of the variants made at upload, and its alt text (used
 * when the section gives none).
 */

export interface ResponsiveSource {
  width: number;
  height: number;
  /** The image's own format: its variants and the full image, as a srcset. */
  srcSet: string;
  /** WebP variants as a srcset, for a <source>; null when the image is WebP itself or has no variants. */
  webpSrcSet: string | null;
}

export interface LibraryImage {
  alt: string | null;
  responsive: ResponsiveSource | null;
}

/**
 * The images of the library among these URLs, by URL; other URLs (external, data:) are
 * left out. A URL into the media store that names no image of the library (one deleted
 * while a section still showed it) maps to null: the reader leaves its section out
 * rather than show a broken image. A variant's URL counts as its image's.
 */
export async function describeImages(
  db: Kysely<Database>,
  storage: Pick<MediaStorage, "bucket" | "pathOf" | "url">,
  urls: string[],
): Promise<Map<string, LibraryImage | null>> {
  const paths = new Map<string, string>();
  for (const url of urls) {
    const path = storage.pathOf(url);
    if (path !== null) paths.set(url, path);
  }
  const records = await findMediaByPaths(db, storage.bucket, [...new Set(paths.values())]);
  const byPath = new Map(records.map((record) => [record.path, record]));
  const unmatched = [...new Set([...paths.values()].filter((path) => !byPath.has(path)))];
  const kept = await findMediaByStems(db, storage.bucket, unmatched.map(stemOf));
  const stems = new Set(kept.map((record) => stemOf(record.path)));
  const described = new Map<string, LibraryImage | null>();
  for (const [url, path] of paths) {
    const record = byPath.get(path);
    if (record) described.set(url, { alt: record.alt, responsive: responsiveSource(record, storage) });
    else if (!stems.has(stemOf(path))) described.set(url, null);
  }
  return described;
}

function responsiveSource(record: MediaRecord, storage: Pick<MediaStorage, "url">): ResponsiveSource | null {
  if (!record.width || !record.height) return null;
  const format = record.mime.slice("image/".length);
  const candidates = (wanted: string) =>
    record.variants
      .filter((variant) => variant.format === wanted)
      .map((variant) => `${storage.url(variant.path)} ${variant.width}w`);
  const own = [...candidates(format), `${storage.url(record.path)} ${record.width}w`];
  const webp = format === "webp" ? [] : candidates("webp");
  return {
    width: record.width,
    height: record.height,
    srcSet: own.join(", "),
    webpSrcSet: webp.length > 0 ? webp.join(", ") : null,
  };
}
