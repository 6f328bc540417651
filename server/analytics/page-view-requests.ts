import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { posix } from "node:path";
import { isbot } from "isbot";
import { LRUCache } from "lru-cache";

/**
 * Which requests are public page views, for the counter (page-views.ts), judged from
 * the request and, once answered, from its status and Content-Type.
 *
 * What counts: a successful (2xx) GET of a public page, either a document load
 * (Accept: text/html answered with HTML) or a React Router client navigation (the
 * GET `<path>.data` request, answered 200; redirects answer 202/204 and do not count).
 * What does not: bots, requests without a User-Agent, HEAD and other methods,
 * prefetches and prerenders, the admin area, sign-in pages, the API, assets, the
 * health check, errors and 404s (so made-up paths cannot grow the table), a chapter
 * preview (`?preview`, shown to editors and admins only, drafts included), and a
 * `.data` request for the page the browser already shows (Referer equal to the page:
 * the revalidation React Router does after a form submission, not a new view).
 */

/** Longer paths are cut to this many characters. */
export const MAX_PATH_LENGTH = 200;

/** Never counted: private areas and things that are not pages. Matched as whole path segments. */
const EXCLUDED_PREFIXES = ["/admin", "/auth", "/api", "/assets", "/healthz", "/.well-known", "/__manifest"];

type ViewKind = "document" | "data";

/** A GET from a visitor's browser: with a User-Agent, not a bot's, and not a prefetch. */
function isVisitorsGet(req: IncomingMessage): boolean {
  if (req.method !== "GET") return false;
  const headers = req.headers;
  const userAgent = headers["user-agent"];
  return !!userAgent && !isPrefetch(headers) && !isBotOnConnection(req, userAgent);
}

/** A visitor's browser loading a page as a document (Accept: text/html). */
export function isVisitorsDocumentLoad(req: IncomingMessage): boolean {
  return isVisitorsGet(req) && acceptsHtml(req.headers.accept ?? "");
}

/** What a request would count as, judged before the response; undefined when it cannot be a page view. */
export function pageViewCandidate(
  req: IncomingMessage & { originalUrl?: string },
): { path: string; kind: ViewKind } | undefined {
  if (!isVisitorsGet(req)) return undefined;

  const url = req.originalUrl ?? req.url ?? "";
  const queryStart = url.indexOf("?");
  const rawPath = queryStart === -1 ? url : url.slice(0, queryStart);
  const search = queryStart === -1 ? "" : url.slice(queryStart);
  if (search && new URLSearchParams(search).has("preview")) return undefined;

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
 * One spelling per page: percent-encoding decoded, lower case, "." and ".." segments
 * resolved, repeated and trailing slashes removed (except the root "/"), cut to
 * MAX_PATH_LENGTH.
 * Undefined for a path that cannot be a page (bad encoding, control characters).
 */
function normalizePagePath(rawPath: string): string | undefined {
  let path: string;
  try {
    // Lower case since the router matches paths case-insensitively (`/%41uth` is the sign-in
    // page): the exclusions must see the spelling it matches, and every spelling of a page
    // is one row. Every route and slug of the site is lower case.
    path = decodeURI(rawPath).toLowerCase();
  } catch {
    return undefined;
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (!path.startsWith("/") || /[\u0000-\u001f\u007f]/.test(path)) return undefined;
  // Dot segments resolved as the router's URL parser resolves them (`/projects/%2e%2e`
  // renders the home page), repeated slashes collapsed.
  path = posix.normalize(path);
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

/** Whether the answer to a candidate (its status and Content-Type) makes it a view. */
export function isSuccessfulPage(status: number, contentType: string, kind: ViewKind): boolean {
  // Data requests answer redirects with 202 or 204 and a redirect payload.
  if (kind === "data") return status === 200;
  // A 304 is the page shown again from the browser's copy: cached pages say max-age=0,
  // so every return visit revalidates, and would otherwise go uncounted.
  const shown = (status >= 200 && status < 300 && status !== 204) || status === 304;
  return shown && /^\s*text\/html\b/i.test(contentType);
}
