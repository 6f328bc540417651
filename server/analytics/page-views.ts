import type { IncomingMessage, ServerResponse } from "node:http";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import { DAY_MS, utcDay } from "./days.ts";
import { isSuccessfulPage, isVisitorsDocumentLoad, pageViewCandidate } from "./page-view-requests.ts";
import { type PendingCount, PendingCounts } from "./pending-counts.ts";

/**
 * A privacy-preserving count of public page views per UTC day and path, the only
 * writer of page_views. Nothing identifies a visitor: no cookie is read or set, and
 * the IP address and User-Agent are looked at (to skip bots) but never kept, so the
 * table holds only (day, path, views). Counts are kept in memory and added to the
 * table every few seconds with an additive upsert, so several instances sharing one
 * PostgreSQL database add up instead of overwriting each other. Which requests are
 * views is page-view-requests.ts.
 */

export const DEFAULT_FLUSH_INTERVAL_MS = 5_000;
/** Distinct (day, path) pairs held while the database cannot be written, at most. */
const MAX_PENDING_KEYS = 10_000;
const ROWS_PER_STATEMENT = 500;

export interface PageViewCounterOptions {
  db: Kysely<Database>;
  logger: Logger;
  /** How often pending counts are written; 5 s by default. */
  flushIntervalMs?: number;
  /** The clock that decides the day of a view (tests). */
  now?: () => Date;
}

/**
 * The server's request listener (server/http/cached-pages.ts) counts every view, in one
 * place: observe() for the responses Express writes, recordServed() for the answers the
 * page cache writes before Express (whose headers node:http does not give back).
 */
export interface PageViewCounter {
  /** Looks at the request, and records the view when the response has finished successfully. */
  observe(req: IncomingMessage, res: ServerResponse): void;
  /**
   * Records the view of a cached answer already written. `served` is the same object for
   * every answer of one page and status (server/http/page-cache/): whether such an
   * answer is a view, and of which path, is worked out once and remembered.
   */
  recordServed(req: IncomingMessage, served: ServedAnswer): void;
  /** Writes the pending counts now. Rejects when the database refuses them; they are kept for the next flush. */
  flush(): Promise<void>;
  /** Stops the timer and writes what is pending (a failure is logged, not thrown). Call after the server has closed. */
  stop(): Promise<void>;
}

/** A cached answer's status and Content-Type. */
export interface ServedAnswer {
  status: number;
  contentType: string;
}

export function createPageViewCounter(options: PageViewCounterOptions): PageViewCounter {
  const { db, logger } = options;
  // Date.now() unless a test sets the clock: it runs for every counted view.
  const { now } = options;
  const nowMs = now ? () => now().getTime() : Date.now;
  const flushIntervalMs = options.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS;
  if (!Number.isFinite(flushIntervalMs) || flushIntervalMs <= 0) {
    throw new RangeError(`flushIntervalMs must be a positive number of milliseconds, not ${flushIntervalMs}`);
  }

  let pending = new PendingCounts(MAX_PENDING_KEYS);
  let inFlight: Promise<void> | undefined;
  let warnedFull = false;

  /** The current UTC day, worked out again only when the clock has left the one known. */
  let dayStart = 0;
  let dayEnd = 0;
  let dayText = "";
  function today(): string {
    const time = nowMs();
    if (time < dayStart || time >= dayEnd) {
      dayStart = time - (time % DAY_MS);
      dayEnd = dayStart + DAY_MS;
      dayText = utcDay(new Date(dayStart));
    }
    return dayText;
  }

  function record(path: string): void {
    if (pending.add(today(), path, 1)) return;
    if (!warnedFull) {
      warnedFull = true;
      logger.warn({ pending: pending.size }, "Page view counts are not being written; new paths are dropped");
    }
  }

  const observe: PageViewCounter["observe"] = (req, res) => {
    const candidate = pageViewCandidate(req);
    if (candidate) {
      res.once("finish", () => {
        const contentType = res.getHeader("content-type");
        if (isSuccessfulPage(res.statusCode, String(contentType ?? ""), candidate.kind)) record(candidate.path);
      });
    }
  };

  /** Per cached answer: the path its views count under, or null when it is not a view. */
  const servedPaths = new WeakMap<ServedAnswer, string | null>();

  const recordServed: PageViewCounter["recordServed"] = (req, served) => {
    // The request's headers differ from one answer to the next and are read every time.
    // The path does not: every answer object belongs to one cached page, whose URL has no
    // query, so the path and the answer's status are judged once per object.
    if (!isVisitorsDocumentLoad(req)) return;
    let path = servedPaths.get(served);
    if (path === undefined) {
      const candidate = pageViewCandidate(req);
      const counted = candidate && isSuccessfulPage(served.status, served.contentType, candidate.kind);
      path = counted ? candidate.path : null;
      servedPaths.set(served, path);
    }
    if (path !== null) record(path);
  };

  async function write(batch: PendingCounts): Promise<void> {
    // The same order in every instance: concurrent upserts on PostgreSQL then lock
    // rows in the same order and cannot deadlock.
    const rows = batch.counts().sort((a, b) => compare(a.day, b.day) || compare(a.path, b.path));
    // One statement is atomic on its own; a larger batch is split, in one transaction
    // so that a failure leaves none of it written (and it can be retried whole).
    if (rows.length <= ROWS_PER_STATEMENT) return upsert(db, rows);
    await db.transaction().execute(async (trx) => {
      for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
        await upsert(trx, rows.slice(start, start + ROWS_PER_STATEMENT));
      }
    });
  }

  async function flush(): Promise<void> {
    // One write at a time: a flush asked for during another waits for it, then
    // writes what came in meanwhile.
    while (inFlight) await inFlight.catch(() => {});
    if (pending.size === 0) return;
    const batch = pending;
    pending = new PendingCounts(MAX_PENDING_KEYS);
    const writing = write(batch).then(
      () => {
        warnedFull = false;
      },
      (error: unknown) => {
        // Kept for the next flush: the write is atomic, so none of them was stored.
        for (const { day, path, views } of batch.counts()) pending.add(day, path, views);
        throw error;
      },
    );
    inFlight = writing.finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  }

  const timer = setInterval(() => {
    flush().catch((error: unknown) => logger.error({ err: error }, "Could not write page view counts"));
  }, flushIntervalMs);
  // The counter never keeps the process alive on its own.
  timer.unref();

  async function stop(): Promise<void> {
    clearInterval(timer);
    try {
      await flush();
    } catch (error) {
      logger.error({ err: error, pending: pending.size }, "Could not write the last page view counts");
    }
  }

  return { observe, recordServed, flush, stop };
}

/** Adds the views to the stored counts: correct however many instances write at once. */
async function upsert(db: Kysely<Database>, rows: PendingCount[]): Promise<void> {
  await db
    .insertInto("page_views")
    .values(rows)
    .onConflict((conflict) =>
      conflict
        .columns(["day", "path"])
        .doUpdateSet((eb) => ({ views: eb("page_views.views", "+", eb.ref("excluded.views")) })),
    )
    .execute();
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
