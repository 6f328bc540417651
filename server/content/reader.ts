import type { Logger } from "../logger.ts";
import type { MediaLibrary } from "../media/library.ts";
import type { LibraryImage, ResponsiveSource } from "../media/reader-images.ts";
import type { ChapterPreview } from "./draft-preview.ts";
import { highlightCode } from "./highlight.ts";
import { publishedPaths } from "./paths.ts";
import { summarize } from "./summary.ts";
import type { ChapterPage, ChapterSection, ChapterSummary, PublishedContent } from "./types.ts";

/**
 * Chapters as the reader shows them (app/components/reader/): sections turned into
 * paragraphs, list items, anchored headings, highlighted code (Shiki runs on the
 * server only) and images with their library's sizes, for the published pages, an
 * editor's draft preview and the section editor's live preview alike.
 */

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

/** The reader's page for a path, or where a former slug now lives, or nothing (a 404). */
export type ReaderLookup =
  | { kind: "reader"; reader: ReaderData }
  | { kind: "redirect"; slug: string }
  | { kind: "missing" };

/** Sections before this one are near the top: their first image loads at once, later ones lazily. */
const EAGER_IMAGE_BEFORE_SECTION = 3;

/** What preparing a chapter reads besides its content: the media library's images, and a logger. */
export interface ReaderSources {
  media: Pick<MediaLibrary, "describeImages">;
  logger: Pick<Logger, "warn">;
}

/**
 * /projects shows the first published chapter (or Coming Soon), /projects/:slug its
 * chapter; a former slug is a redirect to the current one, anything else missing. A
 * chapter's canonical path is its own page, also when /projects shows it, so that
 * search engines index one URL for it.
 */
export async function readReader(
  content: PublishedContent,
  sources: ReaderSources,
  origin: string,
  slug: string | undefined,
): Promise<ReaderLookup> {
  const chapters = await content.chapters();
  const target = slug ?? chapters[0]?.slug;
  if (target === undefined) return { kind: "reader", reader: { chapters, current: null, origin, path: "/projects" } };

  const lookup = await content.chapter(target);
  if (lookup.kind !== "chapter") return lookup;
  return {
    kind: "reader",
    reader: {
      chapters,
      current: await prepareChapter(lookup.page, sources),
      origin,
      path: publishedPaths.chapter(lookup.page.chapter.slug),
    },
  };
}

/**
 * An editor's preview of a chapter, published or not (draft-preview.ts), prepared
 * exactly as the reader prepares a published one.
 */
export async function prepareChapterPreview(
  preview: ChapterPreview,
  sources: ReaderSources,
  origin: string,
): Promise<ReaderData> {
  return {
    chapters: preview.chapters,
    current: await prepareChapter(preview.page, sources),
    origin,
    path: publishedPaths.chapter(preview.page.chapter.slug),
  };
}

/** One section as the reader would show it: the section editor's live preview. */
export async function prepareSectionPreview(
  section: ChapterSection,
  sources: ReaderSources,
): Promise<ReaderSection | null> {
  const src = section.content.trim();
  const library =
    section.type === "image" && isImageSource(src) ? (await sources.media.describeImages([src])).get(src) : undefined;
  return prepareSection(section, new Set(), { library, eager: true }, sources.logger);
}

async function prepareChapter(page: ChapterPage, sources: ReaderSources): Promise<ReaderChapter> {
  const anchors = new Set<string>();
  const imageSections = page.sections.filter(
    (section) => section.type === "image" && isImageSource(section.content.trim()),
  );
  const images = await sources.media.describeImages(imageSections.map((section) => section.content.trim()));
  const first = imageSections[0];
  const eagerImageId = first && page.sections.indexOf(first) < EAGER_IMAGE_BEFORE_SECTION ? first.id : undefined;
  const sections = await Promise.all(
    page.sections.map((section) =>
      prepareSection(
        section,
        anchors,
        { library: images.get(section.content.trim()), eager: section.id === eagerImageId },
        sources.logger,
      ),
    ),
  );
  const { id, slug, title, number } = page.chapter;
  const firstText = page.sections.find((section) => section.type === "text")?.content;
  return {
    chapter: { id, slug, title, number },
    sections: sections.filter((section): section is ReaderSection => section !== null),
    previous: page.previous,
    next: page.next,
    description: firstText ? summarize(firstText) : `Chapter ${number}: ${title}`,
  };
}

async function prepareSection(
  section: ChapterSection,
  anchors: Set<string>,
  image: { library: LibraryImage | null | undefined; eager: boolean },
  logger: Pick<Logger, "warn">,
): Promise<ReaderSection | null> {
  const { id, content } = section;
  switch (section.type) {
    case "heading":
      return { id, type: "heading", text: content.trim(), anchor: uniqueAnchor(content, anchors) };
    case "text":
      return { id, type: "text", paragraphs: paragraphs(content) };
    case "tip":
      return { id, type: "tip", paragraphs: paragraphs(content) };
    case "list":
      return { id, type: "list", items: listItems(content) };
    case "code":
      return {
        id,
        type: "code",
        code: content,
        language: section.language?.trim() || null,
        caption: section.caption?.trim() || null,
        html: await highlightCode(content, section.language, logger),
      };
    case "image": {
      const src = content.trim();
      // null: an image of the library deleted since (reader-images.ts).
      if (!isImageSource(src) || image.library === null) return null;
      const caption = section.caption?.trim() || null;
      return {
        id,
        type: "image",
        src,
        caption,
        alt: section.alt?.trim() || image.library?.alt || caption || "Chapter illustration",
        responsive: image.library?.responsive ?? null,
        eager: image.eager,
      };
    }
    default:
      return null;
  }
}

/** Paragraphs are separated by blank lines; single line breaks stay inside a paragraph. */
function paragraphs(text: string): string[] {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
}

/** One item per non-empty line; a leading bullet ("-", "*", "•") is dropped. */
function listItems(text: string): string[] {
  return text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => line.trim().replace(/^[-*•]\s+/, ""))
    .filter(Boolean);
}

function uniqueAnchor(text: string, taken: Set<string>): string {
  const base =
    text
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60) || "section";
  let anchor = base;
  for (let n = 2; taken.has(anchor); n++) anchor = `${base}-${n}`;
  taken.add(anchor);
  return anchor;
}

/** Uploaded images are same-site paths or http(s) URLs; nothing else becomes an src. */
function isImageSource(src: string): boolean {
  if (src.startsWith("/") && !src.startsWith("//")) return true;
  return URL.canParse(src) && /^https?:$/.test(new URL(src).protocol);
}
