import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { isbot } from "isbot";
import type { Kysely } from "kysely";
import { LRUCache } from "lru-cache";
import type { Database } from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import { DAY_MS, utcDay } from "./days.ts";
import { type PendingCount, PendingCounts } from "./pending-counts.ts";

/**
 * A privacy-preserving count of public page views per UTC day and path, the only
 * writer of page_views. Nothing identifies a visitor: no cookie is read or set, and
 * the IP address and User-Agent are looked at (to skip bots) but never kept, so the
 * table holds only (day, path, views). Counts are kept in memory and added to the
 * table every few seconds with an additive upsert, so several instances sharing one
 * PostgreSQL database add up instead of overwriting each other.
 *
 * What counts: a successful (2xx) GET of a public page, either a document load
 * (Accept: text/html answered with HTML) or a React Router client navigation (the
 * GET `<path>.data` request, answered 200; redirects answer 202/204 and do not count).
 * What does not: bots, requests without a User-Agent, HEAD and other methods,
 * prefetches and prerenders, the admin area, sign-in pages, the API, assets, the
 * health check, errors and 404s (so made-up paths cannot grow the table), and a
 * `.data` request for the page the browser already shows (Referer equal to the page:
 * the revalidation React Router does after a form submission, not a new view).
 */

export const DEFAULT_FLUSH_INTERVAL_MS = 5_000;
/** Longer paths are cut to this many characters. */
export const MAX_PATH_LENGTH = 200;
/** Distinct (day, path) pairs held while the database cannot be written, at most. */
const MAX_PENDING_KEYS = 10_000;
const ROWS_PER_STATEMENT = 500;

/** Never counted: private areas and things that are not pages. Matched as whole path segments. */
const EXCLUDED_PREFIXES = ["/admin", "/auth", "/api", "/assets", "/healthz", "/.well-known", "/__manifest"];

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

type ViewKind = "document" | "data";

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

/** A GET from a visitor's browser: with a User-Agent, not a bot's, and not a prefetch. */
function isVisitorsGet(req: IncomingMessage): boolean {
  if (req.method !== "GET") return false;
  const headers = req.headers;
  const userAgent = headers["user-agent"];
  return !!userAgent && !isPrefetch(headers) && !isBotOnConnection(req, userAgent);
}

/** A visitor's browser loading a page as a document (Accept: text/html). */
function isVisitorsDocumentLoad(req: IncomingMessage): boolean {
  return isVisitorsGet(req) && acceptsHtml(req.headers.accept ?? "");
}

/** What a request would count as, judged before the response; undefined when it cannot be a page view. */
function pageViewCandidate(
  req: IncomingMessage & { originalUrl?: string },
): { path: string; kind: ViewKind } | undefined {
  if (!isVisitorsGet(req)) return undefined;

  const url = req.originalUrl ?? req.url ?? "";
  const queryStart = url.indexOf("?");
  const rawPath = queryStart === -1 ? url : url.slice(0, queryStart);
  const search = queryStart === -1 ? "" : url.slice(queryStart);

  let kind: ViewKind;
  let pagePath: string;
  if (rawPath.endsWith(".data")) {
    kind = "data";
    pagePath = dataRequestPagePath(rawPath);
  } else if (acceptsHtml(req.headers.accept ?? "")) {
    kind = "document";
    pagePath = rawPath;
  } else {
    return undefined;
  }

  const path = countedPath(pagePath);
  if (path === undefined) return undefined;
  if (kind === "data" && isRevalidation(firstValue(req.headers.referrer) || req.headers.referer, path, search)) {
    return undefined;
  }
  return { path, kind };
}

/** A header's value, the first one when Node keeps the repeats as a list. */
function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

const ACCEPTS_HTML = /text\/html/i;

/**
 * A browser loading a page puts the type first, in lower case: comparing the start
 * finds it, where a search through the header cost a cached page's answer about 400
 * instructions; the pattern (several times slower) is the fallback.
 */
function acceptsHtml(accept: string): boolean {
  return accept.startsWith("text/html") || ACCEPTS_HTML.test(accept);
}

const PREFETCH_PURPOSE = /prefetch|prerender|preview/i;

/**
 * Whether a prefetch or prerender asked for the page, by the header its browser names
 * the purpose in. Each is read by its own name: V8 answers a read by a fixed name from
 * the headers object's shape, where a read by a name held in a variable (a loop over
 * the names) looks the name up in a shared table every time, about 150 instructions
 * per header and request, about half of what a cached page's page-view check cost.
 */
function isPrefetch(headers: IncomingHttpHeaders): boolean {
  return (
    isPrefetchPurpose(headers["sec-purpose"]) ||
    isPrefetchPurpose(headers.purpose) ||
    isPrefetchPurpose(headers["x-purpose"]) ||
    isPrefetchPurpose(headers["x-moz"])
  );
}

function isPrefetchPurpose(purpose: string | string[] | undefined): boolean {
  return purpose !== undefined && PREFETCH_PURPOSE.test(String(purpose));
}

/**
 * Answers remembered per User-Agent and per path: every request of a page asks, a
 * visitor's browser sends the same User-Agent each time, and isbot's pattern costs
 * microseconds per test (a measurable share of a cached page's answer).
 */
const botAnswers = new LRUCache<string, boolean>({ max: 1000 });
const countedPaths = new LRUCache<string, { path: string | undefined }>({ max: 1000 });

function isBot(userAgent: string): boolean {
  let answer = botAnswers.get(userAgent);
  if (answer === undefined) {
    answer = isbot(userAgent);
    botAnswers.set(userAgent, answer);
  }
  return answer;
}

/**
 * The User-Agent last judged on each connection, with its answer. A browser sends the
 * same one on every request of a keep-alive connection, and each request's header is a
 * new string: comparing it with the one before costs a tenth of hashing it to look it
 * up in botAnswers (about 10 ns against 130 for a browser's, on every cache hit). A
 * proxy's connection that carries several visitors' requests just asks botAnswers more.
 */
const lastAnswerOnConnection = new WeakMap<Socket, { userAgent: string; bot: boolean }>();

function isBotOnConnection(req: IncomingMessage, userAgent: string): boolean {
  const connection = req.socket;
  // A request made up outside a server (a test's) may have no socket.
  if (!connection) return isBot(userAgent);
  const last = lastAnswerOnConnection.get(connection);
  if (last?.userAgent === userAgent) return last.bot;
  const bot = isBot(userAgent);
  lastAnswerOnConnection.set(connection, { userAgent, bot });
  return bot;
}

/** The path a view of this page is counted under; undefined when it is not counted. */
function countedPath(pagePath: string): string | undefined {
  let counted = countedPaths.get(pagePath);
  if (!counted) {
    const path = normalizePagePath(pagePath);
    counted = { path: path === undefined || isExcluded(path) ? undefined : path };
    countedPaths.set(pagePath, counted);
  }
  return counted.path;
}

/**
 * The page a React Router data request loads: `/blog.data` → `/blog`, `/blog/_.data`
 * → `/blog/`, `/_.data` → `/` (and `/_root.data` → `/`, the root's name in React Router 7).
 */
function dataRequestPagePath(rawPath: string): string {
  if (rawPath === "/_root.data") return "/";
  if (rawPath.endsWith("/_.data")) return rawPath.slice(0, -"_.data".length);
  return rawPath.slice(0, -".data".length);
}

/**
 * One spelling per page: percent-encoding decoded, repeated and trailing slashes
 * removed (except the root "/"), letter case kept, cut to MAX_PATH_LENGTH.
 * Undefined for a path that cannot be a page (bad encoding, control characters).
 */
export function normalizePagePath(rawPath: string): string | undefined {
  let path: string;
  try {
    path = decodeURI(rawPath);
  } catch {
    return undefined;
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (!path.startsWith("/") || /[\u0000-\u001f\u007f]/.test(path)) return undefined;
  path = path.replace(/\/{2,}/g, "/");
  if (path.length > 1) path = path.replace(/\/+$/, "");
  // Cut by code points, so that no half of a surrogate pair is stored.
  if (path.length > MAX_PATH_LENGTH) path = Array.from(path).slice(0, MAX_PATH_LENGTH).join("");
  return path || "/";
}

function isExcluded(path: string): boolean {
  return EXCLUDED_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** A `.data` request for the very page (path and query) the browser shows: a revalidation. */
function isRevalidation(referer: string | undefined, path: string, search: string): boolean {
  if (!referer) return false;
  let shown: URL;
  try {
    shown = new URL(referer);
  } catch {
    return false;
  }
  return normalizePagePath(shown.pathname) === path && pageQuery(shown.search) === pageQuery(search);
}

/** The query of a page, without the parameters React Router adds to data requests. */
function pageQuery(search: string): string {
  const params = new URLSearchParams(search);
  params.delete("_routes");
  params.delete("index");
  params.sort();
  return params.toString();
}

function isSuccessfulPage(status: number, contentType: string, kind: ViewKind): boolean {
  // Data requests answer redirects with 202 or 204 and a redirect payload.
  if (kind === "data") return status === 200;
  if (status < 200 || status >= 300 || status === 204) return false;
  return /^\s*text\/html\b/i.test(contentType);
}
