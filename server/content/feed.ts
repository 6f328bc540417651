import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { SITE_NAME } from "../site.ts";
import { publishedPaths } from "./paths.ts";
import type { ChapterSummary, ResourcesPage, TipCategoryBlock } from "./types.ts";

/**
 * The crawler files: /sitemap.xml, /robots.txt and the Atom feed /feed.xml. Built from
 * the published content (PublishedContent) plus the chapters' publication dates, which
 * the chapter summaries do not carry. Every URL is absolute, on PUBLIC_URL's origin.
 */

/**
 * The public pages every sitemap lists, before the chapters. /projects is listed only
 * while no chapter is published: otherwise it shows the first chapter, whose canonical
 * URL is the chapter's own.
 */
const SITEMAP_PAGES = ["/", "/blog", "/resources", "/about"] as const;
/** Feed entries, newest first, at most. */
export const FEED_LIMIT = 100;

export function escapeXml(value: string): string {
  // Characters XML 1.0 forbids are dropped; the five special ones are escaped.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
  const allowed = value.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "");
  return allowed
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

export interface ChapterDates {
  /** When the chapter was published (published_at, else updated_at): the feed's date, so an edit is not news. */
  published: string;
  /** When it or one of its sections last changed: the sitemap's lastmod, so crawlers come back. */
  edited: string;
}

/** The dates of published chapters, by id. */
export async function publishedChapterDates(db: Kysely<Database>): Promise<Map<string, ChapterDates>> {
  const rows = await db
    .selectFrom("chapters")
    .select(["id", "published_at", "updated_at"])
    .where("published", "=", true)
    .execute();
  return new Map(
    rows.map((row) => [row.id, { published: row.published_at ?? row.updated_at, edited: row.updated_at }]),
  );
}

function absolute(origin: string, path: string): string {
  return new URL(path, `${origin}/`).href;
}

/**
 * A resource may link to a page of the site by its path (/projects/intro). Feed readers
 * and feed-to-mail services that copy the link as it is leave their users with a dead
 * one, so the path is made absolute. Links to other sites are kept as written.
 */
function linkOf(origin: string, url: string): string {
  return url.startsWith("/") ? absolute(origin, url) : url;
}

function isoDate(value: string | undefined): string {
  const date = value ? new Date(value) : new Date(0);
  return Number.isNaN(date.getTime()) ? new Date(0).toISOString() : date.toISOString();
}

export function buildSitemap(
  origin: string,
  chapters: ChapterSummary[],
  chapterDates: Map<string, ChapterDates>,
): string {
  const pages = chapters.length === 0 ? [...SITEMAP_PAGES, "/projects"] : SITEMAP_PAGES;
  const urls = [
    ...pages.map((path) => ({ loc: absolute(origin, path), lastmod: undefined as string | undefined })),
    ...chapters.map((chapter) => ({
      loc: absolute(origin, publishedPaths.chapter(chapter.slug)),
      lastmod: chapterDates.get(chapter.id)?.edited,
    })),
  ];
  const body = urls
    .map(
      ({ loc, lastmod }) =>
        `  <url><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${escapeXml(isoDate(lastmod))}</lastmod>` : ""}</url>`,
    )
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>\n`;
}

export function buildRobots(origin: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    "Disallow: /admin",
    "Disallow: /auth",
    "Disallow: /api/",
    "",
    `Sitemap: ${absolute(origin, "/sitemap.xml")}`,
    "",
  ].join("\n");
}

export interface FeedEntry {
  id: string;
  title: string;
  link: string;
  updated: string;
  summary: string;
  category: string;
}

/** The entries of the Atom feed: chapters, tips and resources, newest first. */
export function feedEntries(
  origin: string,
  content: {
    chapters: ChapterSummary[];
    chapterDates: Map<string, ChapterDates>;
    tips: TipCategoryBlock[];
    resources: ResourcesPage;
  },
): FeedEntry[] {
  const entries: FeedEntry[] = [];
  for (const chapter of content.chapters) {
    const link = absolute(origin, publishedPaths.chapter(chapter.slug));
    entries.push({
      // Not the link: a new title gives the chapter a new slug, and feed readers take an
      // entry with another id for a new one, announcing the renamed chapter again.
      id: `${absolute(origin, "/projects")}#chapter-${encodeURIComponent(chapter.id)}`,
      title: `Chapter ${chapter.number}: ${chapter.title}`,
      link,
      updated: isoDate(content.chapterDates.get(chapter.id)?.published),
      summary: `Chapter ${chapter.number} of the course.`,
      category: "Chapter",
    });
  }
  for (const block of content.tips) {
    for (const tip of block.tips) {
      entries.push({
        id: `${absolute(origin, "/blog")}#tip-${encodeURIComponent(tip.id)}`,
        title: tip.title,
        link: tip.url ?? absolute(origin, "/blog"),
        updated: isoDate(tip.createdAt),
        summary: tip.description,
        category: `Tip: ${block.category}`,
      });
    }
  }
  // A featured resource may also be listed in its category: one entry each.
  const seen = new Set<string>();
  for (const resource of [...content.resources.featured, ...content.resources.categories.flatMap((c) => c.resources)]) {
    if (seen.has(resource.id)) continue;
    seen.add(resource.id);
    entries.push({
      id: `${absolute(origin, "/resources")}#resource-${encodeURIComponent(resource.id)}`,
      title: resource.name,
      link: linkOf(origin, resource.url),
      updated: isoDate(resource.createdAt),
      summary: resource.description,
      category: `Resource: ${resource.category}`,
    });
  }
  entries.sort((a, b) => (a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : a.id.localeCompare(b.id)));
  return entries.slice(0, FEED_LIMIT);
}

/**
 * The Atom document. Atom requires the feed's own `updated`: its newest entry's date,
 * or, for a site with nothing published yet, `now` (the moment the empty feed was read)
 * rather than 1970, which readers show as the feed's age.
 */
export function buildAtomFeed(origin: string, entries: FeedEntry[], now: Date = new Date()): string {
  const home = absolute(origin, "/");
  const self = absolute(origin, "/feed.xml");
  const updated = entries[0]?.updated ?? now.toISOString();
  const items = entries
    .map((entry) =>
      [
        "  <entry>",
        `    <id>${escapeXml(entry.id)}</id>`,
        `    <title type="text">${escapeXml(entry.title)}</title>`,
        `    <link rel="alternate" href="${escapeXml(entry.link)}"/>`,
        `    <updated>${escapeXml(entry.updated)}</updated>`,
        `    <category term="${escapeXml(entry.category)}"/>`,
        entry.summary ? `    <summary type="text">${escapeXml(entry.summary)}</summary>` : "",
        "  </entry>",
      ]
        .filter(Boolean)
        .join("\n"),
    )
    .join("\n");
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<feed xmlns="http://www.w3.org/2005/Atom">`,
    `  <id>${escapeXml(home)}</id>`,
    `  <title type="text">${escapeXml(SITE_NAME)}</title>`,
    `  <subtitle type="text">${escapeXml(`New chapters, tips and resources from ${SITE_NAME}`)}</subtitle>`,
    `  <link rel="self" type="application/atom+xml" href="${escapeXml(self)}"/>`,
    `  <link rel="alternate" type="text/html" href="${escapeXml(home)}"/>`,
    `  <updated>${escapeXml(updated)}</updated>`,
    `  <author><name>${escapeXml(SITE_NAME)}</name></author>`,
    items,
    `</feed>`,
    "",
  ]
    .filter((line) => line !== "")
    .join("\n")
    .concat("\n");
}
