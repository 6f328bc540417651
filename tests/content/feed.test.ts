import { describe, expect, it } from "vitest";
import { buildAtomFeed, type FeedEntry } from "../../server/content/feed.ts";

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
