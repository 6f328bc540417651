import { createHash } from "node:crypto";
import type { IncomingMessage, OutgoingHttpHeader, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { promisify } from "node:util";
import { brotliCompress, gzip, constants as zlibConstants } from "node:zlib";
import type { RequestHandler, Response } from "express";

/**
 * The rendered-page cache for anonymous visitors (docs/decisions/008-page-cache.md).
 *
 * A public page answered 200 to a visitor without a session cookie is kept in memory,
 * keyed by (content version, theme cookie, path), and served from there to the next
 * anonymous visitor with a strong ETag, a CDN-friendly Cache-Control and 304 on
 * If-None-Match. A cached body's inline scripts carry the nonce of the render that
 * produced it, so every answer from the cache (304s included) sends a CSP whose nonce
 * is that one, not the fresh one of the request. Any content write changes the content
 * version: older entries become unreachable and are dropped.
 *
 * Each entry keeps its complete answers precomputed (headers of the rendered response,
 * security baseline included, plus ETag and Content-*), so that respond() can send a hit
 * straight from node:http before Express runs (server/http/cached-pages.ts).
 */

export const PAGE_CACHE_CONTROL = "public, max-age=0, s-maxage=60, stale-while-revalidate=300";
/** Cookies whose name starts with this mark a signed-in (or signing-in) visitor: never cached. */
export const SESSION_COOKIE_PREFIX = "bastion";
/** The visitor's theme choice, when the site keeps one in a cookie; part of the cache key. */
export const THEME_COOKIE = "theme";
/** Response header saying whether the page came from the cache (hit) or was rendered (miss). */
export const PAGE_CACHE_HEADER = "X-Page-Cache";

/** Never cached: private areas, resource routes with per-visitor answers, data requests, tokens in links. */
const EXCLUDED_PREFIXES = ["/admin", "/auth", "/api", "/assets", "/.well-known", "/newsletter", "/healthz"];
/** Theme values outside this shape bypass the cache, so made-up values cannot evict real pages. */
const THEME_VALUE = /^[a-z][a-z-]{0,15}$/;
/**
 * Headers of the rendered response that are not replayed from the cache: those of that
 * one response or connection (HSTS depends on the request: respond()'s caller adds it),
 * and those the cache sets itself. Everything else, the security baseline with the CSP
 * carrying the body's nonce included, is kept.
 */
const UNSTORED_HEADERS = new Set([
  "date",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "content-encoding",
  "etag",
  "cache-control",
  "vary",
  "set-cookie",
  "strict-transport-security",
  PAGE_CACHE_HEADER.toLowerCase(),
]);

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

type Encoding = "br" | "gzip" | "identity";

/** Header names and values in one flat list, as writeHead() takes them. */
type FlatHeaders = OutgoingHttpHeader[];

interface Variant {
  body: Buffer;
  etag: string;
  /** The complete headers of a 200 and of a 304 with this representation. */
  ok: FlatHeaders;
  notModified: FlatHeaders;
}

export interface CachedPage {
  /** The nonce the body's inline scripts (and the stored CSP) carry. */
  nonce: string;
  contentType: string;
  /** The stored headers of the rendered response, with the cache's own ones. */
  headers: FlatHeaders;
  /** Its compressed variants are made (or it is too small for them): the fast path may serve it. */
  complete: boolean;
  identity: Variant;
  gzip?: Variant;
  br?: Variant;
  /** Bytes held for this entry (all variants). */
  size: number;
}

export interface PageCacheOptions {
  /** The published content's version (PublishedContent.version()); changes on every content write. */
  version: () => number | string;
  /** At most this many pages (default 500). */
  maxEntries?: number;
  /** At most this many bytes over all entries and their compressed variants (default 64 MiB). */
  maxBytes?: number;
  /** Bodies larger than this are not cached (default 2 MiB). */
  maxBodyBytes?: number;
}

export interface PageCache {
  /**
   * Answers from the cache, early in the middleware chain (after the security headers,
   * before static files and everything a cached page does not need). `beforeServing`
   * runs first on a hit only (the page-view counter: hits are views too). On a miss
   * it marks the request for capture() and passes it on.
   */
  lookup(beforeServing?: RequestHandler): RequestHandler;
  /** Keeps the rendered answer of a request lookup() marked; mount it just before the renderer. */
  capture: RequestHandler;
  /** lookup() and capture() in one, for a chain without anything between them. */
  middleware: RequestHandler;
  /**
   * Answers a hit in full from the precomputed response (plus `extraHeaders`, e.g. HSTS),
   * without any middleware: the caller logs it and counts the view. Undefined, with
   * nothing written, for anything else (misses, and pages whose compressed variants
   * are not made yet: Express's compression() serves those).
   */
  respond(
    req: IncomingMessage,
    res: ServerResponse,
    extraHeaders?: FlatHeaders,
  ): { status: number; contentType: string } | undefined;
  /** Drops every entry (the content version keys them already; this is for tests and operators). */
  clear(): void;
  /** `compressing`: pages whose compressed variants are being made in the background. */
  stats(): { entries: number; bytes: number; hits: number; misses: number; compressing: number };
}

/** The cache key of a request, or null when the request must not be served from (or stored in) the cache. */
export function pageCacheKey(
  request: { method: string; url: string; headers: Record<string, string | string[] | undefined> },
  version: number | string,
): string | null {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  const url = request.url;
  // A query string may carry tokens or filters: such requests are rendered every time.
  if (url.includes("?") || url.includes("#")) return null;
  const path = url;
  if (!path.startsWith("/") || path.startsWith("//")) return null;
  if (path.endsWith(".data")) return null;
  for (const prefix of EXCLUDED_PREFIXES) {
    if (path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}.`)) return null;
  }
  if (request.headers.authorization) return null;

  let theme = "";
  const cookieHeader = request.headers.cookie;
  const cookies = Array.isArray(cookieHeader) ? cookieHeader.join("; ") : (cookieHeader ?? "");
  if (cookies) {
    for (const part of cookies.split(";")) {
      const separator = part.indexOf("=");
      const name = (separator === -1 ? part : part.slice(0, separator)).trim();
      if (!name) continue;
      // Better Auth's cookies (bastion.session_token, __Secure-bastion.…): a signed-in visitor.
      if (
        name.startsWith(SESSION_COOKIE_PREFIX) ||
        name.replace(/^__(Secure|Host)-/, "").startsWith(SESSION_COOKIE_PREFIX)
      ) {
        return null;
      }
      if (name === THEME_COOKIE) {
        const value = separator === -1 ? "" : part.slice(separator + 1).trim();
        if (!THEME_VALUE.test(value)) return null;
        theme = value;
      }
    }
  }
  return `${version}\n${theme}\n${path}`;
}

/** Picks the representation the client accepts, preferring brotli, then gzip. */
function chooseEncoding(acceptEncoding: string | undefined, page: CachedPage): Encoding {
  if (!acceptEncoding) return "identity";
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(",")) {
    const [coding, ...parameters] = part.trim().split(";");
    if (!coding) continue;
    let quality = 1;
    for (const parameter of parameters) {
      const match = /^\s*q=([0-9.]+)\s*$/.exec(parameter);
      if (match) quality = Number(match[1]);
    }
    accepted.set(coding, quality);
  }
  const acceptable = (coding: string) => (accepted.get(coding) ?? accepted.get("*") ?? 0) > 0;
  if (page.br && acceptable("br")) return "br";
  if (page.gzip && acceptable("gzip")) return "gzip";
  return "identity";
}

/** If-None-Match matches when it lists any representation's tag (weak comparison, RFC 9110 13.1.2). */
function notModified(ifNoneMatch: string | undefined, page: CachedPage): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  const tags = new Set([page.identity.etag, page.gzip?.etag, page.br?.etag].filter(Boolean));
  return ifNoneMatch.split(",").some((tag) => tags.has(tag.trim().replace(/^W\//, "")));
}

/** A representation's complete 200 and 304 headers. */
function variant(page: Pick<CachedPage, "headers">, body: Buffer, etag: string, encoding: Encoding): Variant {
  const notModified = [...page.headers, "etag", etag];
  const ok = [...notModified, "content-length", String(body.length)];
  // Set before compression() looks at the response (Express path): it leaves encoded bodies alone.
  if (encoding !== "identity") ok.push("content-encoding", encoding);
  return { body, etag, ok, notModified };
}

/** The status, headers and body answering `req` from `page`. */
function answerFor(req: IncomingMessage, page: CachedPage) {
  const chosen = page[chooseEncoding(req.headers["accept-encoding"], page)] ?? page.identity;
  if (notModified(req.headers["if-none-match"], page)) {
    return { status: 304, headers: chosen.notModified, body: undefined };
  }
  return { status: 200, headers: chosen.ok, body: req.method === "HEAD" ? undefined : chosen.body };
}

function cacheControlAllowsStoring(value: unknown): boolean {
  if (value === undefined) return true;
  const text = String(value).toLowerCase();
  return !/(private|no-store|no-cache)/.test(text);
}

function tagFor(body: Buffer, suffix: string): string {
  const digest = createHash("sha256").update(body).digest("base64url").slice(0, 32);
  return `"${digest}${suffix}"`;
}

export function createPageCache(options: PageCacheOptions): PageCache {
  const maxEntries = options.maxEntries ?? 500;
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const maxBodyBytes = options.maxBodyBytes ?? 2 * 1024 * 1024;
  /** Insertion order is recency order: a hit moves the entry to the end. */
  const entries = new Map<string, CachedPage>();
  let bytes = 0;
  let hits = 0;
  let misses = 0;
  let compressing = 0;
  let seenVersion: number | string | undefined;

  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.size;
  };

  const clear = () => {
    entries.clear();
    bytes = 0;
  };

  /** Drops the least recently used entries until the cache is within its bounds. */
  const evict = () => {
    for (const oldest of entries.keys()) {
      if (entries.size <= maxEntries && bytes <= maxBytes) break;
      remove(oldest);
    }
  };

  const store = (key: string, page: CachedPage) => {
    if (page.size > maxBytes) return;
    remove(key);
    entries.set(key, page);
    bytes += page.size;
    evict();
  };

  /** Serves a hit through Express (whose middleware has set the baseline already; stored values win). */
  const serve = (req: IncomingMessage, res: Response, page: CachedPage) => {
    const { status, headers, body } = answerFor(req, page);
    for (let index = 0; index < headers.length; index += 2) {
      res.setHeader(headers[index] as string, headers[index + 1] as string | string[]);
    }
    res.locals.cspNonce = page.nonce;
    res.statusCode = status;
    res.end(body);
  };

  /** Records the body of a rendered answer; stores it when it turned out cacheable. */
  const recordBody = (key: string, res: Response) => {
    const chunks: Buffer[] = [];
    let length = 0;
    let tooLarge = false;
    const collect = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === "function" || tooLarge) return;
      const buffer =
        typeof chunk === "string"
          ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
          : Buffer.from(chunk as Uint8Array);
      length += buffer.length;
      if (length > maxBodyBytes) {
        tooLarge = true;
        chunks.length = 0;
        return;
      }
      chunks.push(buffer);
    };

    const originalWriteHead = res.writeHead;
    res.writeHead = function writeHead(this: Response, ...args: unknown[]) {
      const status = typeof args[0] === "number" ? args[0] : this.statusCode;
      if (status === 200 && this.getHeader("Cache-Control") === undefined && !this.getHeader("Set-Cookie")) {
        this.setHeader("Cache-Control", PAGE_CACHE_CONTROL);
        this.setHeader("Vary", "Accept-Encoding, Cookie");
      }
      this.setHeader(PAGE_CACHE_HEADER, "miss");
      return (originalWriteHead as (...rest: unknown[]) => Response).apply(this, args);
    } as typeof res.writeHead;

    const originalWrite = res.write;
    res.write = function write(this: Response, chunk: unknown, ...rest: unknown[]) {
      collect(chunk, rest[0]);
      return (originalWrite as (...all: unknown[]) => boolean).call(this, chunk, ...rest);
    } as typeof res.write;

    const originalEnd = res.end;
    res.end = function end(this: Response, chunk?: unknown, ...rest: unknown[]) {
      collect(chunk, rest[0]);
      const result = (originalEnd as (...all: unknown[]) => Response).call(this, chunk, ...rest);
      const headers: OutgoingHttpHeaders = this.getHeaders();
      const contentType = String(headers["content-type"] ?? "");
      const nonce = this.locals.cspNonce as string | undefined;
      if (
        !tooLarge &&
        this.statusCode === 200 &&
        nonce &&
        contentType &&
        headers["set-cookie"] === undefined &&
        cacheControlAllowsStoring(
          headers["cache-control"] === PAGE_CACHE_CONTROL ? undefined : headers["cache-control"],
        )
      ) {
        const body = Buffer.concat(chunks);
        const stored: FlatHeaders = [];
        for (const [name, value] of Object.entries(headers)) {
          if (value === undefined || UNSTORED_HEADERS.has(name)) continue;
          stored.push(name, typeof value === "number" ? String(value) : value);
        }
        stored.push("cache-control", PAGE_CACHE_CONTROL, "vary", "Accept-Encoding, Cookie", PAGE_CACHE_HEADER, "hit");
        void compressAndStore(key, body, nonce, contentType, stored);
      }
      return result;
    } as typeof res.end;
  };

  /** Stores the page at once (served uncompressed until the compressed variants are ready). */
  const compressAndStore = async (
    key: string,
    body: Buffer,
    nonce: string,
    contentType: string,
    headers: FlatHeaders,
  ) => {
    const small = body.length < 1024;
    const page: CachedPage = {
      nonce,
      contentType,
      headers,
      complete: small,
      identity: variant({ headers }, body, tagFor(body, ""), "identity"),
      size: body.length + key.length,
    };
    // The key carries the version it was rendered under: stored late, it is simply unreachable.
    store(key, page);
    if (small) return;
    compressing++;
    try {
      const [gzipped, brotli] = await Promise.all([
        gzipAsync(body, { level: 6 }),
        brotliAsync(body, {
          params: {
            [zlibConstants.BROTLI_PARAM_QUALITY]: 5,
            [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        }),
      ]);
      page.gzip = variant(page, gzipped, tagFor(body, "-gzip"), "gzip");
      page.br = variant(page, brotli, tagFor(body, "-br"), "br");
      page.complete = true;
      const added = gzipped.length + brotli.length;
      page.size += added;
      if (entries.get(key) === page) {
        // Grown in place: finishing its compression is not a use, so the entry keeps its
        // place in the recency order (else eviction would depend on when zlib finished).
        bytes += added;
        if (page.size > maxBytes) remove(key);
        else evict();
      }
    } catch {
      // Served uncompressed through Express (compression() does it per response).
    } finally {
      compressing--;
    }
  };

  /** res.locals key of a missed request's cache key, set by lookup() for capture(). */
  const PENDING = "pageCacheKey";

  /** The cache key of a GET/HEAD and its entry; first drops every entry when the content version changed. */
  const find = (req: IncomingMessage & { originalUrl?: string }) => {
    const version = options.version();
    if (version !== seenVersion) {
      // Content changed: every entry is now unreachable, so the memory is given back at once.
      seenVersion = version;
      clear();
    }
    const url = req.originalUrl ?? req.url ?? "";
    const key = pageCacheKey({ method: req.method ?? "", url, headers: req.headers }, version);
    return { key, page: key === null ? undefined : entries.get(key) };
  };

  /** Counts a hit and makes the entry the most recently used. */
  const touch = (key: string, page: CachedPage) => {
    hits++;
    entries.delete(key);
    entries.set(key, page);
  };

  const respond: PageCache["respond"] = (req, res, extraHeaders) => {
    if (req.method !== "GET" && req.method !== "HEAD") return undefined;
    const { key, page } = find(req);
    if (key === null || !page?.complete) return undefined;
    touch(key, page);
    const { status, headers, body } = answerFor(req, page);
    res.writeHead(status, extraHeaders ? [...headers, ...extraHeaders] : headers);
    res.end(body);
    return { status, contentType: page.contentType };
  };

  const lookup =
    (beforeServing?: RequestHandler): RequestHandler =>
    (req, res, next) => {
      if (req.method !== "GET" && req.method !== "HEAD") return next();
      const { key, page } = find(req);
      if (key === null) return next();
      if (!page) {
        misses++;
        // HEAD renders no body (entry.server.tsx): nothing to keep.
        if (req.method === "GET") res.locals[PENDING] = key;
        return next();
      }
      touch(key, page);
      if (beforeServing) beforeServing(req, res, () => serve(req, res, page));
      else serve(req, res, page);
    };

  const captureMarked: RequestHandler = (_req, res, next) => {
    const key = res.locals[PENDING] as string | undefined;
    if (key !== undefined) recordBody(key, res);
    next();
  };

  const serveOrRender = lookup();
  const middleware: RequestHandler = (req, res, next) => {
    serveOrRender(req, res, () => captureMarked(req, res, next));
  };

  return {
    lookup,
    capture: captureMarked,
    respond,
    middleware,
    clear,
    stats: () => ({ entries: entries.size, bytes, hits, misses, compressing }),
  };
}
