import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { findMediaByPaths, type MediaRecord } from "./records.ts";
import type { MediaStorage } from "./storage/storage.ts";

/**
 * What the public reader needs to show an image section: its alt text, and, when the
 * section's URL is one of our images, its dimensions (no layout shift) and srcsets of
 * the variants made at upload.
 */

export interface ResponsiveSource {
  width: number;
  height: number;
  /** The image's own format: its variants and the full image, as a srcset. */
  srcSet: string;
  /** WebP variants as a srcset, for a <source>; null when the image is WebP itself or has no variants. */
  webpSrcSet: string | null;
}

export interface SectionImage {
  /** The section's alt text (chapter_sections.alt), else the image's; null when neither has one. */
  alt: string | null;
  /** Null for an image that is not in our media library (an old external URL, a data: URI). */
  responsive: ResponsiveSource | null;
}

export async function describeSectionImages(
  db: Kysely<Database>,
  storage: Pick<MediaStorage, "bucket" | "pathOf" | "url">,
  sections: Array<{ id: string; url: string }>,
): Promise<Map<string, SectionImage>> {
  const described = new Map<string, SectionImage>();
  if (sections.length === 0) return described;
  const alts = await db
    .selectFrom("chapter_sections")
    .select(["id", "alt"])
    .where(
      "id",
      "in",
      sections.map((section) => section.id),
    )
    .execute();
  const altOf = new Map(alts.map((row) => [row.id, row.alt?.trim() || null]));
  const paths = new Map(sections.map((section) => [section.id, storage.pathOf(section.url.trim())]));
  const records = await findMediaByPaths(
    db,
    storage.bucket,
    [...paths.values()].filter((path): path is string => path !== null),
  );
  const byPath = new Map(records.map((record) => [record.path, record]));

  for (const section of sections) {
    const path = paths.get(section.id);
    const record = path ? byPath.get(path) : undefined;
    described.set(section.id, {
      alt: altOf.get(section.id) ?? (record?.alt?.trim() || null),
      responsive: record ? responsiveSource(record, storage) : null,
    });
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
