import type { MediaItem } from "../../../server/media/media-item.ts";
import type { MediaUsage } from "../../../server/media/usage.ts";

/** How the media screens name and describe an image. */

/** The name it was uploaded with, else its stored file name. */
export function imageName(image: Pick<MediaItem, "originalName" | "url">): string {
  return image.originalName ?? image.url.split("/").pop() ?? image.url;
}

/** The smallest copy of the image (a variant, else the image itself), for a thumbnail. */
export function thumbnailOf(image: Pick<MediaItem, "url" | "width" | "height" | "variants">) {
  const smallest = [...image.variants].sort((a, b) => a.width - b.width || a.bytes - b.bytes)[0];
  return smallest ?? { url: image.url, width: image.width, height: image.height };
}

/** "812 B", "245 KB", "1.4 MB" (1 KB = 1024 bytes, as the 5 MB limit counts). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export interface ChapterUsage {
  chapterId: string;
  chapterTitle: string;
  sections: number;
}

/** The chapters whose sections show the image, each once, in reading order. */
export function chaptersUsing(usage: readonly MediaUsage[]): ChapterUsage[] {
  const chapters = new Map<string, ChapterUsage>();
  for (const place of usage) {
    const chapter = chapters.get(place.chapterId);
    if (chapter) chapter.sections += 1;
    else chapters.set(place.chapterId, { chapterId: place.chapterId, chapterTitle: place.chapterTitle, sections: 1 });
  }
  return [...chapters.values()];
}

/** Where the projects screen opens on this chapter's sections. */
export function chapterSectionsHref(chapterId: string): string {
  return `/admin/projects?chapter=${encodeURIComponent(chapterId)}`;
}
