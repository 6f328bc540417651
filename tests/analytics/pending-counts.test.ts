import { describe, expect, it } from "vitest";
import { PendingCounts } from "../../server/analytics/pending-counts.ts";

describe("pending page view counts", () => {
  it("adds up the views of each (day, path) pair, on every day held", () => {
    const pending = new PendingCounts(10);
    expect(pending.add("2026-11-24", "/blog", 1)).toBe(true);
    expect(pending.add("2026-11-25", "/blog", 2)).toBe(true);
    expect(pending.add("2026-11-25", "/blog", 3)).toBe(true);
    expect(pending.add("2026-11-25", "/", 1)).toBe(true);
    expect(pending.size).toBe(3);
    expect(pending.counts()).toEqual(
      expect.arrayContaining([
        { day: "2026-11-24", path: "/blog", views: 1 },
        { day: "2026-11-25", path: "/blog", views: 5 },
        { day: "2026-11-25", path: "/", views: 1 },
      ]),
    );
    expect(pending.counts()).toHaveLength(3);
  });

  it("refuses a new pair once it holds its maximum, and still adds to the pairs it holds", () => {
    const pending = new PendingCounts(2);
    pending.add("2026-11-25", "/a", 1);
    pending.add("2026-11-25", "/b", 1);
    expect(pending.add("2026-11-25", "/c", 1)).toBe(false);
    expect(pending.add("2026-11-26", "/a", 1)).toBe(false);
    expect(pending.add("2026-11-25", "/a", 4)).toBe(true);
    expect(pending.size).toBe(2);
    expect(pending.counts()).toEqual([
      { day: "2026-11-25", path: "/a", views: 5 },
      { day: "2026-11-25", path: "/b", views: 1 },
    ]);
  });
});
