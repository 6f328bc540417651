import type { MediaRecord } from "./records.ts";
import type { MediaStorage } from "./storage/storage.ts";
import type { MediaUsage } from "./usage.ts";

/** An image as routes, the admin screens and API clients see it. */
export interface MediaItem {
  id: string;
  url: string;
  width: number;
  height: number;
  mime: string;
  bytes: number;
  alt: string | null;
  originalName: string | null;
  /** The address an imported image was fetched from. */
  sourceUrl: string | null;
  createdAt: string;
  createdBy: string | null;
  /** Name it when changing the alt text (optimistic concurrency). */
  revision: number;
  /** Narrower copies for srcset: WebP, and the original format unless that is WebP. */
  variants: Array<{ url: string; width: number; height: number; mime: string; bytes: number }>;
}

/** An image of the media library, with the chapter sections that show it. */
export interface MediaLibraryItem extends MediaItem {
  usage: MediaUsage[];
}

export function toMediaItem(record: MediaRecord, storage: Pick<MediaStorage, "url">): MediaItem {
  return {
    id: record.id,
    url: storage.url(record.path),
    width: record.width ?? 0,
    height: record.height ?? 0,
    mime: record.mime,
    bytes: record.bytes,
    alt: record.alt,
    originalName: record.original_name,
    sourceUrl: record.source_url,
    createdAt: record.created_at,
    createdBy: record.created_by,
    revision: record.revision,
    variants: record.variants.map((variant) => ({
      url: storage.url(variant.path),
      width: variant.width,
      height: variant.height,
      mime: `image/${variant.format}`,
      bytes: variant.bytes,
    })),
  };
}
