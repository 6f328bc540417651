import { afterEach, describe, expect, it, vi } from "vitest";
import { atEveryNewYear } from "../../server/content/new-year.ts";
import { createPublishedContent } from "../../server/content/published.ts";
import { prepareDatabase } from "../../server/db/setup.ts";
import { createTestDatabase } from "../helpers/databases.ts";
import { logger } from "./fixture.ts";

/**
 * The public footer shows the current year, and cached pages keep what they showed until
 * the published content's version changes: it changes when the year turns.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

afterEach(() => {
  vi.useRealTimers();
});

describe("atEveryNewYear", () => {
  it("calls back at each turn of the year in the server's time zone, across waits longer than one timer", () => {
    vi.useFakeTimers({ now: new Date(2026, 11, 31, 23, 59, 59, 0) });
    const years: number[] = [];
    const stop = atEveryNewYear(() => years.push(new Date().getFullYear()));
    vi.advanceTimersByTime(999);
    expect(years).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(years).toEqual([2027]);
    // A year is about 15 of the longest timers: only the last one calls back.
    vi.advanceTimersByTime(364 * DAY_MS);
    expect(years).toEqual([2027]);
    vi.advanceTimersByTime(DAY_MS);
    expect(years).toEqual([2027, 2028]);
    stop();
    vi.advanceTimersByTime(400 * DAY_MS);
    expect(years).toEqual([2027, 2028]);
  });
});

describe("published content", () => {
  it("changes its version when the year turns, so cached pages are rendered again", async () => {
    const testDb = await createTestDatabase("sqlite");
    const handle = await prepareDatabase(testDb.config, logger);
    vi.useFakeTimers({ now: new Date(2026, 11, 31, 12, 0, 0), toFake: ["setTimeout", "clearTimeout", "Date"] });
    const content = createPublishedContent({ db: handle.db, dialect: "sqlite", logger });
    try {
      await content.home();
      const loads = content.loads();
      const version = content.version();
      vi.advanceTimersByTime(11 * 60 * 60 * 1000);
      expect(content.version()).toBe(version);
      vi.advanceTimersByTime(60 * 60 * 1000);
      expect(content.version()).toBeGreaterThan(version);
      await content.home();
      expect(content.loads()).toBe(loads + 1);
    } finally {
      await content.close();
      vi.useRealTimers();
      await handle.close();
      await testDb.drop();
    }
  });
});
