import { describe, expect, it } from "vitest";
import { buildAtomFeed, buildSitemap, type FeedEntry, feedEntries } from "../../server/content/feed.ts";
import type { ResourceCard } from "../../server/content/types.ts";

/** The Atom document's own `updated`, which feed readers show as the feed's age. */
function feedUpdated(xml: string): string | undefined {
  return /<feed[^>]*>[\s\S]*?<updated>([^<]+)<\/updated>/.exec(xml)?.[1];
}

const entry: FeedEntry = {
  id: "https://example.com/blog#tip-1",
  title: "A tip",
  link: "https://example.com/blog",
  updated: "2026-03-04T05:06:07.000Z",
  summary: "",
  category: "Tip: Web",
};

describe("buildAtomFeed", () => {
  it("dates the feed by its newest entry", () => {
    const xml = buildAtomFeed("https://example.com", [entry], new Date("2026-11-30T10:00:00Z"));
    expect(feedUpdated(xml)).toBe("2026-03-04T05:06:07.000Z");
  });

  it("dates an empty feed at the moment it is read, not in 1970", () => {
    const xml = buildAtomFeed("https://example.com", [], new Date("2026-11-30T10:00:00Z"));
    expect(xml).not.toContain("<entry>");
    expect(feedUpdated(xml)).toBe("2026-11-30T10:00:00.000Z");
  });
});

describe("buildSitemap", () => {
  const locations = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);

  it("lists the first chapter once, by its own URL, not also as /projects", () => {
    const chapter = { id: "chapter-1", slug: "intro", title: "Intro", number: 1 };
    expect(locations(buildSitemap("https://example.com", [chapter], new Map()))).toEqual([
      "https://example.com/",
      "https://example.com/blog",
      "https://example.com/resources",
      "https://example.com/about",
      "https://example.com/projects/intro",
    ]);
  });

  it("lists /projects while no chapter is published: it is then a page of its own", () => {
    expect(locations(buildSitemap("https://example.com", [], new Map()))).toContain("https://example.com/projects");
  });
});

describe("feedEntries", () => {
  const noResources = { featured: [], categories: [] };

  it("keeps a chapter's entry id when a new title gives it a new slug", () => {
    const feedOf = (slug: string, title: string) =>
      feedEntries("https://example.com", {
        chapters: [{ id: "chapter-1", slug, title, number: 1 }],
        chapterDates: new Map([["chapter-1", { published: entry.updated, edited: entry.updated }]]),
        tips: [],
        resources: noResources,
      });
    const [before] = feedOf("intro", "Intro");
    const [after] = feedOf("introduction", "Introduction");
    expect(after?.link).toBe("https://example.com/projects/introduction");
    expect(after?.id).toBe(before?.id);
  });

  const resource = (id: string, url: string): ResourceCard => ({
    id,
    name: `Resource ${id}`,
    description: "",
    url,
    category: "Learning",
    featured: false,
    createdAt: "2026-03-04T05:06:07.000Z",
  });

  it("links a resource that points to a page of the site by its absolute URL, and others as written", () => {
    const entries = feedEntries("https://example.com", {
      chapters: [],
      chapterDates: new Map(),
      tips: [],
      resources: {
        featured: [],
        categories: [
          {
            category: "Learning",
            resources: [resource("a", "/projects/intro"), resource("b", "https://other.example/Guide?a=1&b=2")],
          },
        ],
      },
    });
    expect(entries.map((entry) => entry.link)).toEqual([
      "https://example.com/projects/intro",
      "https://other.example/Guide?a=1&b=2",
    ]);
  });
});
