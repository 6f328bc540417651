import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../server/config.ts";
import { prepareDatabase } from "../../server/db/setup.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";
import { header, request } from "./client.ts";

/**
 * /sitemap.xml, /robots.txt and /feed.xml on the built server, over a database holding
 * published and draft chapters, tips and resources, some with characters XML must escape.
 */

let server: RunningServer;
const PUBLISHED = ["first-steps", "scanning-at-scale"];
const DRAFT = "secret-draft";
const EDITED_AT = "2025-05-05T00:00:00.000Z";
const TRICKY = `Tom & Jerry's <script>"quotes"</script>`;

beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bastion-seo-"));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "error" });
  const database = await prepareDatabase(config.database, pino({ level: "silent" }));
  try {
    const db = database.db;
    const chapters = [
      { slug: PUBLISHED[0] as string, title: "First steps", published: true, at: "2025-01-01T00:00:00.000Z" },
      { slug: PUBLISHED[1] as string, title: TRICKY, published: true, at: "2025-03-01T00:00:00.000Z" },
      { slug: DRAFT, title: "Secret draft", published: false, at: null },
    ];
    for (const [index, chapter] of chapters.entries()) {
      await db
        .insertInto("chapters")
        .values({
          id: randomUUID(),
          slug: chapter.slug,
          title: chapter.title,
          number: index + 1,
          order_index: index,
          published: chapter.published,
          published_at: chapter.at,
          // The first chapter was edited after it was published.
          updated_at: index === 0 ? EDITED_AT : (chapter.at ?? EDITED_AT),
        })
        .execute();
    }
    await db
      .insertInto("tips_resources")
      .values({
        id: randomUUID(),
        category: "AWS",
        title: `Tip ${TRICKY}`,
        description: "Use & abuse <IAM> conditions",
        url: "https://example.com/tip?a=1&b=2",
        created_at: "2025-02-01T00:00:00.000Z",
      })
      .execute();
    await db
      .insertInto("resources")
      .values({
        id: randomUUID(),
        name: "Newest resource",
        description: "The latest",
        url: "https://example.org/r",
        category: "Tools",
        featured: true,
        created_at: "2025-04-01T00:00:00.000Z",
      })
      .execute();
  } finally {
    await database.close();
  }
  server = await startServer({ dataDir });
});

afterAll(async () => {
  await server?.stop();
});

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  isArray: (name) => ["url", "entry", "link"].includes(name),
});

describe("sitemap.xml", () => {
  it("lists the public pages and published chapters as absolute URLs that resolve", async () => {
    const response = await request(`${server.url}/sitemap.xml`);
    expect(response.status).toBe(200);
    expect(header(response, "content-type")).toMatch(/^application\/xml/);
    const xml = response.text();
    expect(XMLValidator.validate(xml)).toBe(true);
    const document = parser.parse(xml);
    expect(document.urlset["@xmlns"]).toBe("http://www.sitemaps.org/schemas/sitemap/0.9");
    const locations: string[] = document.urlset.url.map((entry: { loc: string }) => entry.loc);
    const paths = locations.map((location) => {
      const url = new URL(location);
      expect(url.origin).toBe(server.url);
      return url.pathname;
    });
    expect(paths).toEqual(["/", "/blog", "/resources", "/about", ...PUBLISHED.map((slug) => `/projects/${slug}`)]);
    expect(xml).not.toContain(DRAFT);
    // A chapter's lastmod is its last edit, not its publication.
    const lastmods = document.urlset.url.map((entry: { lastmod?: string }) => entry.lastmod);
    expect(lastmods.slice(4)).toEqual([EDITED_AT, "2025-03-01T00:00:00.000Z"]);
    for (const location of locations) {
      const page = await request(location);
      expect(page.status, location).toBe(200);
    }
  });
});

describe("robots.txt", () => {
  it("disallows the admin and sign-in areas and points to the sitemap", async () => {
    const response = await request(`${server.url}/robots.txt`);
    expect(response.status).toBe(200);
    expect(header(response, "content-type")).toMatch(/^text\/plain/);
    const lines = response.text().split("\n");
    expect(lines).toContain("User-agent: *");
    expect(lines).toContain("Disallow: /admin");
    expect(lines).toContain("Disallow: /auth");
    expect(lines).toContain(`Sitemap: ${server.url}/sitemap.xml`);
  });
});

describe("feed.xml", () => {
  it("is a valid Atom feed of chapters, tips and resources, newest first, escaped", async () => {
    const response = await request(`${server.url}/feed.xml`);
    expect(response.status).toBe(200);
    expect(header(response, "content-type")).toMatch(/^application\/atom\+xml/);
    const xml = response.text();
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).not.toContain("<script>");
    const { feed } = parser.parse(xml);
    expect(feed["@xmlns"]).toBe("http://www.w3.org/2005/Atom");
    expect(feed.id).toBeTruthy();
    expect(feed.title["#text"]).toBeTruthy();
    expect(feed.author.name).toBeTruthy();
    expect(Number.isNaN(Date.parse(feed.updated))).toBe(false);
    expect(feed.link.some((link: Record<string, string>) => link["@rel"] === "self")).toBe(true);

    const entries: Array<Record<string, unknown>> = feed.entry;
    const titles = entries.map((entry) => (entry.title as Record<string, string>)["#text"]);
    expect(titles).toEqual(["Newest resource", `Chapter 2: ${TRICKY}`, `Tip ${TRICKY}`, "Chapter 1: First steps"]);
    const dates = entries.map((entry) => Date.parse(entry.updated as string));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(entries.length);
    expect(xml).not.toContain(DRAFT);

    const links = entries.map((entry) => (entry.link as Array<Record<string, string>>)[0]?.["@href"] as string);
    expect(links).toContain("https://example.com/tip?a=1&b=2");
    for (const link of links.filter((href) => href.startsWith(server.url))) {
      const page = await request(link);
      expect(page.status, link).toBe(200);
    }
  });
});

describe("the feed's autodiscovery", () => {
  it.each(["/", "/projects", `/projects/${PUBLISHED[0]}`, "/blog", "/resources", "/about"])(
    "%s links to the feed, so a feed reader given the page's address finds it",
    async (page) => {
      const html = (await request(`${server.url}${page}`)).text();
      const tags = html.match(/<link\b[^>]*\brel="alternate"[^>]*>/g) ?? [];
      expect(tags, page).toHaveLength(1);
      expect(tags[0]).toContain('type="application/atom+xml"');
      expect(tags[0]).toContain(`href="${server.url}/feed.xml"`);
    },
  );
});
