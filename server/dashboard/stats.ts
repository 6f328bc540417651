import type { Kysely } from "kysely";
import { addDays, utcDay } from "../analytics/days.ts";
import type { Database } from "../db/schema.ts";

/** The admin dashboard's counters and its chart of page views (read-only). */

export const PAGE_VIEW_CHART_DAYS = 30;
export const PAGE_VIEW_WEEK_DAYS = 7;

export interface DashboardStats {
  chaptersPublished: number;
  /** The spec's "posts": rows of tips_resources. */
  postsPublished: number;
  resourcesAdded: number;
  /** Views of public pages over the last 7 UTC days, today included. */
  pageViewsThisWeek: number;
  /** The last 30 UTC days, oldest first, today last; days without views are 0. */
  pageViewsByDay: Array<{ day: string; views: number }>;
}

export async function getDashboardStats(db: Kysely<Database>, now: Date = new Date()): Promise<DashboardStats> {
  const today = utcDay(now);
  const firstDay = addDays(today, -(PAGE_VIEW_CHART_DAYS - 1));
  const weekStart = addDays(today, -(PAGE_VIEW_WEEK_DAYS - 1));

  const [chapters, posts, resources, viewRows] = await Promise.all([
    db
      .selectFrom("chapters")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("published", "=", true)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("tips_resources")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("resources")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
    // Days are YYYY-MM-DD text, so their text order is their calendar order.
    db
      .selectFrom("page_views")
      .select((eb) => ["day", eb.fn.sum<number>("views").as("views")])
      .where("day", ">=", firstDay)
      .where("day", "<=", today)
      .groupBy("day")
      .execute(),
  ]);

  const viewsOn = new Map(viewRows.map((row) => [row.day, Number(row.views ?? 0)]));
  const pageViewsByDay = Array.from({ length: PAGE_VIEW_CHART_DAYS }, (_, index) => {
    const day = addDays(firstDay, index);
    return { day, views: viewsOn.get(day) ?? 0 };
  });
  const pageViewsThisWeek = pageViewsByDay
    .filter((entry) => entry.day >= weekStart)
    .reduce((total, entry) => total + entry.views, 0);

  return {
    chaptersPublished: Number(chapters.n),
    postsPublished: Number(posts.n),
    resourcesAdded: Number(resources.n),
    pageViewsThisWeek,
    pageViewsByDay,
  };
}
