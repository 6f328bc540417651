import { type ExpressionBuilder, type Kysely, type Selectable, sql } from "kysely";
import { addDays, DAY_MS, utcDay } from "../analytics/days.ts";
import type { Database, NewsletterSubscribersTable, SUBSCRIBER_STATUSES } from "../db/schema.ts";

/**
 * Read models of the admin's newsletter screens (/admin/newsletter): statistics, the
 * subscriber and suppression lists, the CSV export. Their writes live with each
 * table's one writer (subscribers.ts, suppression.ts, settings.ts). Callers check
 * the admin role first.
 */

export const SUBSCRIBERS_PAGE_SIZE = 50;
const SUPPRESSIONS_PAGE_SIZE = 50;

export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];

export interface NewsletterStats {
  total: number;
  /** Subscribed in the last 30 days (the stats' month: a count that does not fall to zero on the 1st). */
  newThisMonth: number;
  /** Subscribed in the last 7 days. */
  newThisWeek: number;
  active: number;
  pending: number;
  unsubscribed: number;
  bounced: number;
}

export async function getNewsletterStats(db: Kysely<Database>, now: Date = new Date()): Promise<NewsletterStats> {
  const monthStart = new Date(now.getTime() - 30 * DAY_MS).toISOString();
  const weekStart = new Date(now.getTime() - 7 * DAY_MS).toISOString();
  const [byStatus, recent] = await Promise.all([
    db
      .selectFrom("newsletter_subscribers")
      .select((eb) => ["status", eb.fn.countAll<number>().as("n")])
      .groupBy("status")
      .execute(),
    db
      .selectFrom("newsletter_subscribers")
      .select((eb) => [
        eb.fn.sum<number>(eb.case().when("subscribed_at", ">=", monthStart).then(1).else(0).end()).as("month"),
        eb.fn.sum<number>(eb.case().when("subscribed_at", ">=", weekStart).then(1).else(0).end()).as("week"),
      ])
      .executeTakeFirstOrThrow(),
  ]);
  const counts: Record<SubscriberStatus, number> = { active: 0, pending: 0, unsubscribed: 0, bounced: 0 };
  for (const row of byStatus) counts[row.status] = Number(row.n);
  return {
    total: counts.active + counts.pending + counts.unsubscribed + counts.bounced,
    newThisMonth: Number(recent.month ?? 0),
    newThisWeek: Number(recent.week ?? 0),
    ...counts,
  };
}

const ACTIVE_CHART_DAYS = 30;

/**
 * Active subscribers at the end of each of the last 30 UTC days (oldest first, today
 * last), from the record of active periods (active-periods.ts): a subscriber counts
 * at a day's end when one of their periods started before it and had not ended by
 * then. The periods keep each earlier stretch of a subscriber who left and came back,
 * which the subscriber's row forgets. One pass of the database over the periods that
 * reach into these days, one sum per day: nothing per subscriber comes back.
 */
export async function activeSubscribersByDay(
  db: Kysely<Database>,
  now: Date = new Date(),
  days: number = ACTIVE_CHART_DAYS,
): Promise<Array<{ day: string; active: number }>> {
  const firstDay = addDays(utcDay(now), -(days - 1));
  const dayEnds = Array.from({ length: days }, (_, index) => {
    const day = addDays(firstDay, index);
    return { day, end: `${addDays(day, 1)}T00:00:00.000Z` };
  });
  const firstEnd = (dayEnds[0] as { end: string }).end;
  const lastEnd = (dayEnds.at(-1) as { end: string }).end;
  const activeAt = (eb: ExpressionBuilder<Database, "newsletter_active_periods">, end: string) =>
    eb.and([eb("started_at", "<", end), eb.or([eb("ended_at", "is", null), eb("ended_at", ">=", end)])]);
  const sums = await db
    .selectFrom("newsletter_active_periods")
    .select((eb) =>
      dayEnds.map(({ end }, index) =>
        eb.fn.sum<number>(eb.case().when(activeAt(eb, end)).then(1).else(0).end()).as(`day${index}`),
      ),
    )
    // Periods that ended before the first day cannot count: the index skips them.
    .where((eb) => eb.or([eb("ended_at", "is", null), eb("ended_at", ">=", firstEnd)]))
    .where("started_at", "<", lastEnd)
    .executeTakeFirstOrThrow();
  const byColumn = sums as Record<string, number | string | null>;
  return dayEnds.map(({ day }, index) => ({ day, active: Number(byColumn[`day${index}`] ?? 0) }));
}

/** `text` as a LIKE pattern that matches it literally anywhere (`\` is the escape character). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

export type SubscriberRow = Pick<Selectable<NewsletterSubscribersTable>, "id" | "email" | "status" | "subscribed_at">;

export interface SubscriberQuery {
  /** Part of the address, case-insensitive; `%` and `_` match themselves. */
  search?: string;
  status?: SubscriberStatus;
  /** 1-based. */
  page?: number;
}

export interface SubscriberPage {
  subscribers: SubscriberRow[];
  total: number;
  page: number;
  pageCount: number;
  pageSize: number;
}

/** Newest first, 50 a page; the page is clamped to the existing ones. */
export async function listSubscribers(db: Kysely<Database>, query: SubscriberQuery = {}): Promise<SubscriberPage> {
  let base = db.selectFrom("newsletter_subscribers");
  const search = query.search?.trim();
  if (search) {
    const pattern = containsPattern(search);
    base = base.where(sql<boolean>`lower(email) like lower(${pattern}) escape '\\'`);
  }
  if (query.status) base = base.where("status", "=", query.status);
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const total = Number(n);
  const pageCount = Math.max(1, Math.ceil(total / SUBSCRIBERS_PAGE_SIZE));
  const page = Math.min(Math.max(1, Math.trunc(query.page ?? 1) || 1), pageCount);
  const subscribers = await base
    .select(["id", "email", "status", "subscribed_at"])
    .orderBy("subscribed_at", "desc")
    .orderBy("id", "desc")
    .limit(SUBSCRIBERS_PAGE_SIZE)
    .offset((page - 1) * SUBSCRIBERS_PAGE_SIZE)
    .execute();
  return { subscribers, total, page, pageCount, pageSize: SUBSCRIBERS_PAGE_SIZE };
}

export interface SuppressionRow {
  id: string;
  email: string;
  reason: string;
  added_at: string;
}

export interface SuppressionPage {
  entries: SuppressionRow[];
  total: number;
  page: number;
  pageCount: number;
  pageSize: number;
}

/** The suppression list, newest first, 50 a page. */
export async function listSuppressions(
  db: Kysely<Database>,
  options: { page?: number } = {},
): Promise<SuppressionPage> {
  const { n } = await db
    .selectFrom("newsletter_suppressions")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  const total = Number(n);
  const pageCount = Math.max(1, Math.ceil(total / SUPPRESSIONS_PAGE_SIZE));
  const page = Math.min(Math.max(1, Math.trunc(options.page ?? 1) || 1), pageCount);
  const entries = await db
    .selectFrom("newsletter_suppressions")
    .select(["id", "email", "reason", "added_at"])
    .orderBy("added_at", "desc")
    .orderBy("id", "desc")
    .limit(SUPPRESSIONS_PAGE_SIZE)
    .offset((page - 1) * SUPPRESSIONS_PAGE_SIZE)
    .execute();
  return { entries, total, page, pageCount, pageSize: SUPPRESSIONS_PAGE_SIZE };
}

// ---------------------------------------------------------------------------
// CSV export

const CSV_COLUMNS = ["email", "status", "subscribed_at", "confirmed_at", "unsubscribed_at"] as const;

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break, with
 * quotes doubled. A field that a spreadsheet would run as a formula (=, +, -, @, tab,
 * carriage return first) is prefixed with an apostrophe.
 */
export function csvField(value: string | null | undefined): string {
  let text = value ?? "";
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Every subscriber, oldest first, as CSV text with a header line (CRLF line ends). */
export async function subscribersCsv(db: Kysely<Database>): Promise<string> {
  const rows = await db
    .selectFrom("newsletter_subscribers")
    .select([...CSV_COLUMNS])
    .orderBy("subscribed_at", "asc")
    .orderBy("id", "asc")
    .execute();
  const lines = [CSV_COLUMNS.join(",")];
  for (const row of rows) lines.push(CSV_COLUMNS.map((column) => csvField(row[column])).join(","));
  return `${lines.join("\r\n")}\r\n`;
}
