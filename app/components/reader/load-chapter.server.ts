import { data, redirect } from "react-router";
import type { ChapterPreview } from "../../../server/content/draft-preview.ts";
import { highlightCode } from "../../../server/content/highlight.ts";
import type { ChapterPage, ChapterSection, PublishedContent } from "../../../server/content/types.ts";
import type { MediaLibrary } from "../../../server/media/library.ts";
import type { LibraryImage } from "../../../server/media/reader-images.ts";
import { summarize } from "../public/page-meta";
import type { ReaderChapter, ReaderData, ReaderSection } from "./types";

/** Sections before this one are near the top: their first image loads at once, later ones lazily. */
const EAGER_IMAGE_BEFORE_SECTION = 3;

type ImageLookup = Pick<MediaLibrary, "describeImages">;

/**
 * The reader's loaders: /projects shows the first published chapter (or Coming Soon),
 * /projects/:slug its chapter; a former slug redirects (301), anything else is a 404.
 */
export async function loadReader(
  content: PublishedContent,
  media: ImageLookup,
  origin: string,
  slug: string | undefined,
): Promise<ReaderData> {
  const chapters = await content.chapters();
  const target = slug ?? chapters[0]?.slug;
  if (target === undefined) return { chapters, current: null, origin, path: "/projects" };

  const lookup = await content.chapter(target);
  if (lookup.kind === "redirect") throw redirect(`/projects/${encodeURIComponent(lookup.slug)}`, 301);
  if (lookup.kind === "missing") throw data(null, { status: 404 });
  return {
    chapters,
    current: await prepareChapter(lookup.page, media),
    origin,
    path: slug === undefined ? "/projects" : `/projects/${lookup.page.chapter.slug}`,
  };
}

/**
 * An editor's preview of a chapter, published or not (server/content/draft-preview.ts),
 * prepared exactly as the reader prepares a published one.
 */
export async function prepareChapterPreview(
  preview: ChapterPreview,
  media: ImageLookup,
  origin: string,
): Promise<ReaderData> {
  return {
    chapters: preview.chapters,
    current: await prepareChapter(preview.page, media),
    origin,
    path: `/projects/${preview.page.chapter.slug}`,
  };
}

/** One section as the reader would show it: the section editor's live preview. */
export async function prepareSectionPreview(
  section: ChapterSection,
  media: ImageLookup,
): Promise<ReaderSection | null> {
  const src = section.content.trim();
  const library =
    section.type === "image" && isImageSource(src) ? (await media.describeImages([src])).get(src) : undefined;
  return prepareSection(section, new Set(), { library, eager: true });
}

async function prepareChapter(page: ChapterPage, media: ImageLookup): Promise<ReaderChapter> {
  const anchors = new Set<string>();
  const imageSections = page.sections.filter(
    (section) => section.type === "image" && isImageSource(section.content.trim()),
  );
  const images = await media.describeImages(imageSections.map((section) => section.content.trim()));
  const first = imageSections[0];
  const eagerImageId = first && page.sections.indexOf(first) < EAGER_IMAGE_BEFORE_SECTION ? first.id : undefined;
  const sections = await Promise.all(
    page.sections.map((section) =>
      prepareSection(section, anchors, {
        library: images.get(section.content.trim()),
        eager: section.id === eagerImageId,
      }),
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
  image: { library: LibraryImage | undefined; eager: boolean },
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
        html: await highlightCode(content, section.language),
      };
    case "image": {
      const src = content.trim();
      if (!isImageSource(src)) return null;
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
export function paragraphs(text: string): string[] {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
}

/** One item per non-empty line; a leading bullet ("-", "*", "•") is dropped. */
export function listItems(text: string): string[] {
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
