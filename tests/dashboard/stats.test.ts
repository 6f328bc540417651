import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { utcDay } from "../../server/analytics/days.ts";
import { getDashboardStats } from "../../server/dashboard/stats.ts";
import type { DatabaseHandle } from "../../server/db/connection.ts";
import { type MigratedDatabase, migratedDatabase, TEST_DIALECTS } from "../helpers/databases.ts";

/** 2024 is a leap year: the 30 days before 5 March cross 29 February. */
const NOW = new Date("2024-03-05T10:00:00.000Z");

describe.each(TEST_DIALECTS)("dashboard statistics on %s", (dialect) => {
  let migrated: MigratedDatabase;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    migrated = await migratedDatabase(dialect);
    handle = migrated.handle;
  });

  beforeEach(async () => {
    const { db } = handle;
    await db.deleteFrom("page_views").execute();
    await db.deleteFrom("chapter_sections").execute();
    await db.deleteFrom("chapters").execute();
    await db.deleteFrom("tips_resources").execute();
    await db.deleteFrom("resources").execute();
  });

  afterAll(async () => {
    await migrated?.close();
  });

  it("is all zeros on an empty site, with 30 days ending today", async () => {
    const stats = await getDashboardStats(handle.db, NOW);
    expect(stats).toMatchObject({ chaptersPublished: 0, postsPublished: 0, resourcesAdded: 0, pageViewsThisWeek: 0 });
    expect(stats.pageViewsByDay).toHaveLength(30);
    expect(stats.pageViewsByDay[0]).toEqual({ day: "2024-02-05", views: 0 });
    expect(stats.pageViewsByDay.at(-1)).toEqual({ day: "2024-03-05", views: 0 });
    expect(stats.pageViewsByDay.every((entry) => entry.views === 0)).toBe(true);
  });

  it("counts published chapters, posts (tips) and resources", async () => {
    const { db } = handle;
    await db
      .insertInto("chapters")
      .values([
        { id: "chapter-1", slug: "one", title: "One", number: 1, order_index: 0, published: true },
        { id: "chapter-2", slug: "two", title: "Two", number: 2, order_index: 1, published: true },
        { id: "chapter-3", slug: "draft", title: "Draft", number: 3, order_index: 2, published: false },
      ])
      .execute();
    await db
      .insertInto("tips_resources")
      .values([
        { id: "tip-1", category: "AWS", title: "IAM", url: "https://example.org/iam", type: "external" },
        { id: "tip-2", category: "Tenable", title: "Scans", url: "https://example.org/scans", type: "external" },
        { id: "tip-3", category: "Career", title: "CV", url: null, type: "coming-soon" },
        { id: "tip-4", category: "Security Tips", title: "MFA", url: "https://example.org/mfa", type: "external" },
      ])
      .execute();
    await db
      .insertInto("resources")
      .values(
        ["a", "b", "c", "d", "e"].map((name) => ({ id: `resource-${name}`, name, url: `https://${name}.example.org` })),
      )
      .execute();

    const stats = await getDashboardStats(db, NOW);
    expect(stats).toMatchObject({ chaptersPublished: 2, postsPublished: 4, resourcesAdded: 5 });
  });

  it("charts the last 30 UTC days oldest first, zero-filled, and sums the last 7 as this week", async () => {
    await handle.db
      .insertInto("page_views")
      .values([
        { day: "2024-03-06", path: "/", views: 50 }, // tomorrow: not counted
        { day: "2024-03-05", path: "/", views: 3 }, // today
        { day: "2024-03-05", path: "/blog", views: 2 },
        { day: "2024-02-29", path: "/about", views: 6 },
        { day: "2024-02-28", path: "/", views: 4 }, // 6 days ago: the first day of the week
        { day: "2024-02-27", path: "/", views: 10 }, // 7 days ago: chart only
        { day: "2024-02-05", path: "/resources", views: 7 }, // 29 days ago: the first day of the chart
        { day: "2024-02-04", path: "/", views: 100 }, // 30 days ago: outside
      ])
      .execute();

    const stats = await getDashboardStats(handle.db, NOW);
    const days = stats.pageViewsByDay;
    expect(days).toHaveLength(30);
    expect(days.map((entry) => entry.day)).toEqual(
      Array.from({ length: 30 }, (_, index) => utcDay(new Date(Date.UTC(2024, 1, 5 + index)))),
    );
    expect(days[0]).toEqual({ day: "2024-02-05", views: 7 });
    expect(days.at(-1)).toEqual({ day: "2024-03-05", views: 5 });
    const byDay = Object.fromEntries(days.map((entry) => [entry.day, entry.views]));
    expect(byDay).toMatchObject({
      "2024-02-27": 10,
      "2024-02-28": 4,
      "2024-02-29": 6,
      "2024-03-01": 0,
      "2024-02-06": 0,
    });
    expect(days.reduce((total, entry) => total + entry.views, 0)).toBe(7 + 10 + 4 + 6 + 5);
    expect(stats.pageViewsThisWeek).toBe(4 + 6 + 5);
    for (const entry of days) expect(typeof entry.views).toBe("number");
  });

  it("moves the window at UTC midnight", async () => {
    await handle.db
      .insertInto("page_views")
      .values([
        { day: "2024-02-27", path: "/", views: 10 },
        { day: "2024-03-05", path: "/", views: 1 },
      ])
      .execute();

    const lastMoment = await getDashboardStats(handle.db, new Date("2024-03-05T23:59:59.999Z"));
    expect(lastMoment.pageViewsByDay.at(-1)?.day).toBe("2024-03-05");
    expect(lastMoment.pageViewsThisWeek).toBe(1);

    const nextDay = await getDashboardStats(handle.db, new Date("2024-03-06T00:00:00.000Z"));
    expect(nextDay.pageViewsByDay[0]?.day).toBe("2024-02-06");
    expect(nextDay.pageViewsByDay.at(-1)).toEqual({ day: "2024-03-06", views: 0 });
    expect(nextDay.pageViewsThisWeek).toBe(1);

    // 2024-02-27 enters this week when today is 2024-03-04 (6 days later).
    const earlier = await getDashboardStats(handle.db, new Date("2024-03-04T00:00:00.000Z"));
    expect(earlier.pageViewsThisWeek).toBe(10);
  });

  it("ends the series today by default", async () => {
    const before = utcDay(new Date());
    const stats = await getDashboardStats(handle.db);
    const after = utcDay(new Date());
    expect([before, after]).toContain(stats.pageViewsByDay.at(-1)?.day);
  });

  it("reads only: page views are left as they were", async () => {
    await handle.db.insertInto("page_views").values({ day: "2024-03-05", path: "/", views: 3 }).execute();
    await getDashboardStats(handle.db, NOW);
    expect(await handle.db.selectFrom("page_views").selectAll().execute()).toEqual([
      { day: "2024-03-05", path: "/", views: 3 },
    ]);
  });
});
