import type { RequestHandler } from "express";

/**
 * One URL per page. The router matches paths case-insensitively and with or without a
 * trailing slash, so /About, /about/ and /about all rendered the about page: each
 * spelling was a page cache entry of its own (pushing real pages out of it), a copy of
 * its own in a CDN, and a duplicate to search engines, which the canonical link only
 * hints at. A GET or HEAD of a path spelled otherwise is redirected (301) to its one
 * spelling: lower case, single slashes, no trailing slash, the query string kept. Every
 * route and slug of the site is spelled that way.
 *
 * Left to the router as they are: paths with any other character (percent-escapes among
 * them: the admin guard judges those itself), with "." or ".." segments, and the paths
 * whose spelling is not the site's to choose (built assets, media files, the API).
 */

const PAGE_PATH = /^[A-Za-z0-9._~/-]+$/;
const DOT_SEGMENT = /(?:^|\/)\.{1,2}(?:\/|$)/;
const OWN_SPELLING = /^\/+(?:assets|media|api)(?:\/|$)/i;
/** The same URL always redirects the same way: a browser or CDN may keep the answer. */
const REDIRECT_CACHE_CONTROL = "public, max-age=86400";

/** Lower case, single slashes, no trailing slash. */
const spelledOnce = (path: string) => `/${path.split("/").filter(Boolean).join("/").toLowerCase()}`;

/** The path's one spelling, or undefined when it is left as it is. */
export function canonicalPath(path: string): string | undefined {
  if (!PAGE_PATH.test(path) || DOT_SEGMENT.test(path) || OWN_SPELLING.test(path)) return undefined;
  // Collapsing the slashes also keeps a redirect from "//host" from becoming one to another site.
  const spelled = spelledOnce(path);
  return spelled === path ? undefined : spelled;
}

/**
 * Whether a path is a page's one spelling. The page cache keeps no other: the spellings
 * left to the router still render a page (`/projects/%2e%2e` is the home page, `/%61bout`
 * the about page), and each one kept would push a real page out of the cache.
 */
export function isCanonicalPath(path: string): boolean {
  return PAGE_PATH.test(path) && !DOT_SEGMENT.test(path) && spelledOnce(path) === path;
}

export const redirectToCanonicalPath: RequestHandler = (req, res, next) => {
  if (req.method !== "GET" && req.method !== "HEAD") return next();
  const canonical = canonicalPath(req.path);
  if (canonical === undefined) return next();
  const queryStart = req.url.indexOf("?");
  const query = queryStart === -1 ? "" : req.url.slice(queryStart);
  res.set("Cache-Control", REDIRECT_CACHE_CONTROL).redirect(301, `${canonical}${query}`);
};
