import type { OutgoingHttpHeader, OutgoingHttpHeaders } from "node:http";
import { hasAuthCookie } from "../../auth/session-cookie.ts";

/**
 * What the page cache may keep and serve (docs/decisions/008-page-cache.md): the rules
 * alone, without the cache's memory or the capture of rendered responses.
 */

export const PAGE_CACHE_CONTROL = "public, max-age=0, s-maxage=60, stale-while-revalidate=300";
/**
 * The page's representations differ by encoding only. A cached page is the same for
 * every visitor (theme included: app/components/theme/), so it does not vary on Cookie,
 * and a CDN keeps one copy per encoding.
 */
export const PAGE_CACHE_VARY = "Accept-Encoding";
/**
 * Response header saying whether the page came from the cache (hit), was rendered for
 * this request (miss), or is the previous version, served while the current one renders
 * (stale).
 */
export const PAGE_CACHE_HEADER = "X-Page-Cache";

/** Never cached: private areas, resource routes with per-visitor answers, data requests, tokens in links. */
const EXCLUDED_PREFIXES = ["/admin", "/auth", "/api", "/assets", "/.well-known", "/newsletter", "/healthz"];
/**
 * An excluded prefix as a whole path, or followed by "/" or "." (`/admin/users`,
 * `/healthz.json`): one pattern, tested once per request, where testing the prefixes
 * one by one took three times as long on every cache hit.
 */
const EXCLUDED_PATH = new RegExp(
  `^(?:${EXCLUDED_PREFIXES.map((prefix) => prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})(?:$|[/.])`,
);

/**
 * The characters excluded paths start with, after the "/": most pages (`/`, `/projects/…`,
 * `/blog`) start with none of them and are let through without the pattern, whose test
 * costs more than the rest of the key's checks together.
 */
const EXCLUDED_INITIALS = new Set(EXCLUDED_PREFIXES.map((prefix) => prefix.charCodeAt(1)));

/**
 * Headers of the rendered response that are not replayed from the cache: those of that
 * one response or connection (HSTS depends on the request: the server's listener adds
 * it), and those the cache sets itself. Everything else, the security baseline with the
 * CSP carrying the body's nonce included, is kept.
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
  // Each answer has its own id (server/http/request-id.ts); the listener adds a hit's.
  "x-request-id",
  PAGE_CACHE_HEADER.toLowerCase(),
]);

/** Header names and values in one flat list, as writeHead() takes them. */
export type FlatHeaders = OutgoingHttpHeader[];

interface RequestLike {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * The cache key of a request (its path), or null when the request must not be served
 * from, nor stored in, the cache.
 */
export function pageCacheKey(request: RequestLike): string | null {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  const path = request.url ?? "";
  // A query string may carry tokens or filters: such requests are rendered every time.
  if (path.includes("?") || path.includes("#")) return null;
  if (!path.startsWith("/") || path.startsWith("//")) return null;
  if (path.endsWith(".data")) return null;
  if (EXCLUDED_INITIALS.has(path.charCodeAt(1)) && EXCLUDED_PATH.test(path)) return null;
  if (request.headers.authorization) return null;
  if (hasAuthCookie(request.headers.cookie)) return null;
  return path;
}

/**
 * Whether a rendered response, about to send its body, may be kept for every anonymous
 * visitor: a 200 with a Content-Type, the nonce its scripts carry, no cookie set, and
 * nothing in its Cache-Control that keeps it private.
 */
export function isStorableResponse(status: number, headers: OutgoingHttpHeaders, nonce: unknown): boolean {
  if (status !== 200 || typeof nonce !== "string" || !nonce) return false;
  if (!headers["content-type"] || headers["set-cookie"] !== undefined) return false;
  const cacheControl = headers["cache-control"];
  return cacheControl === undefined || !/(private|no-store|no-cache)/i.test(String(cacheControl));
}

/** The headers of a rendered response that every answer from the cache replays. */
export function storedHeaders(headers: OutgoingHttpHeaders): FlatHeaders {
  const stored: FlatHeaders = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || UNSTORED_HEADERS.has(name)) continue;
    stored.push(name, typeof value === "number" ? String(value) : value);
  }
  return stored;
}
