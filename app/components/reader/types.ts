import type { ChapterSummary } from "../../../server/content/types.ts";
import type { ResponsiveSource } from "../../../server/media/reader-images.ts";

/** A chapter section as the reader renders it, prepared on the server. */
export type ReaderSection =
  | { id: string; type: "heading"; text: string; anchor: string }
  | { id: string; type: "text"; paragraphs: string[] }
  | { id: string; type: "tip"; paragraphs: string[] }
  | { id: string; type: "list"; items: string[] }
  | {
      id: string;
      type: "code";
      code: string;
      language: string | null;
      caption: string | null;
      /** Shiki's HTML; null for an unknown language (shown as plain text). */
      html: string | null;
    }
  | {
      id: string;
      type: "image";
      src: string;
      caption: string | null;
      /** The section's alt text, else the image's, else the caption. */
      alt: string;
      /** Dimensions and srcsets when the image is in our media library. */
      responsive: ResponsiveSource | null;
      /** The chapter's first image near the top loads at once; the others lazily. */
      eager: boolean;
    };

export interface ReaderChapter {
  chapter: ChapterSummary;
  sections: ReaderSection[];
  previous: ChapterSummary | null;
  next: ChapterSummary | null;
  description: string;
}

export interface ReaderData {
  chapters: ChapterSummary[];
  /** Null when no chapter is published: the Coming Soon page. */
  current: ReaderChapter | null;
  origin: string;
  /** The canonical path of the page. */
  path: string;
}
