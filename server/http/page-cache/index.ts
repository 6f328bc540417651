import type { IncomingMessage, ServerResponse } from "node:http";
import { finished } from "node:stream";
import type { RequestHandler } from "express";
import { LRUCache } from "lru-cache";
import type { ServedAnswer } from "../../analytics/page-views.ts";
import { isCanonicalPath } from "../canonical-path.ts";
import { answerFor, type CachedPage, followedBy, markedStale, pageFrom } from "./answers.ts";
import { captureResponse } from "./capture.ts";
import { endTogether } from "./ends-together.ts";
import { type FlatHeaders, isStorableResponse, PAGE_CACHE_HEADER, pageCacheKey } from "./rules.ts";

export { PAGE_CACHE_CONTROL } from "./rules.ts";

/**
 * The rendered-page cache for anonymous visitors (docs/decisions/008-page-cache.md).
 *
 * A public page answered 200 to a visitor without a session is kept in memory, by path
 * (its one spelling only: ../canonical-path.ts) and with the content version it was
 * rendered at, with its gzip and brotli variants, and every answer to it — the first
 * one included — comes from that entry: a strong ETag per representation, a CDN-friendly
 * Cache-Control and 304 on If-None-Match. A kept page carries no nonce: its inline
 * scripts are allowed by their hashes (script-hashes.ts), since a nonce served to every
 * visitor would be one anyone could reuse. Any content write changes the content
 * version: the next visitor of a page renders it again, and while that render is under
 * way the page's other visitors get the previous version (stale-while-revalidate)
 * instead of waiting for it.
 *
 * The server's request listener asks respond() first (server/http/cached-pages.ts): a
 * hit is answered there, before Express. A miss that may be stored is remembered, and
 * capture (mounted just before the renderer) holds its rendered answer back, stores it
 * once its compressed variants are made, and answers it from the entry like a hit.
 */

export interface PageCacheOptions {
  /** The published content's version (PublishedContent.version()); grows on every content write. */
  version: () => number;
  /** At most this many pages (default 500). */
  maxEntries?: number;
  /** At most this many bytes over all entries and their compressed variants (default 64 MiB). */
  maxBytes?: number;
  /** Bodies larger than this are not cached (default 2 MiB). */
  maxBodyBytes?: number;
}

export interface PageCache {
  /**
   * Answers a hit in full from its precomputed response (plus `extraHeaders`, e.g.
   * HSTS), without any middleware. Undefined, with nothing written, for anything else;
   * a GET or HEAD that the cache may keep is then remembered for capture (a HEAD is
   * rendered as its GET: app/request-handler.server.ts). One of a page whose
   * render is under way waits for it (a promise) and is answered from its entry, or,
   * when the render was not kept, resolves undefined to be rendered itself.
   */
  respond(
    req: IncomingMessage,
    res: ServerResponse,
    extraHeaders?: FlatHeaders,
  ): ServedAnswer | undefined | Promise<ServedAnswer | undefined>;
  /**
   * Express middleware, just before the renderer: the rendered answer of a request
   * respond() remembered is held back, stored when it turns out storable, and answered
   * from its entry, ETag included. Anything else passes through untouched.
   */
  capture: RequestHandler;
}

/** A page rendered for this request: what capture needs to keep it. */
interface PendingRender {
  path: string;
  version: number;
}

export function createPageCache(options: PageCacheOptions): PageCache {
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const maxBodyBytes = options.maxBodyBytes ?? 2 * 1024 * 1024;
  /**
   * The latest kept render of each page, by path. An entry of an older content version
   * is the page's previous version: served only while its current version renders.
   */
  const pages = new LRUCache<string, CachedPage>({
    max: options.maxEntries ?? 500,
    maxSize: maxBytes,
    sizeCalculation: (page, path) => page.size + path.length,
  });
  /** Requests respond() missed that the cache may keep, for capture. */
  const pending = new WeakMap<IncomingMessage, PendingRender>();

  /**
   * The latest render under way of each page, by path, settled when its response is
   * over (kept or not). After a content write every page misses at once: without this,
   * each visitor of a popular page would render it again until the first render is kept.
   */
  const rendering = new Map<string, { version: number; done: Promise<void> }>();

  const answerFrom = (
    page: CachedPage,
    req: IncomingMessage,
    res: ServerResponse,
    extraHeaders: FlatHeaders | undefined,
    stale: boolean,
  ): ServedAnswer => {
    const answer = answerFor(req, page);
    if (stale) res.writeHead(answer.status, [...markedStale(answer.headers), ...(extraHeaders ?? [])]);
    else res.writeHead(answer.status, extraHeaders ? followedBy(answer, extraHeaders) : answer.headers);
    endTogether(res, answer.body);
    return answer.served;
  };

  /**
   * The request renders the page: capture keeps it, and later misses of the path wait
   * for it or get the previous version meanwhile. A visitor who left while waiting (its
   * response already closed) renders for nobody, and its render may never be kept: later
   * misses must not wait for it, or they would wait until the next content write.
   */
  const renderFor = (req: IncomingMessage, res: ServerResponse, path: string, version: number): undefined => {
    pending.set(req, { path, version });
    const latest = rendering.get(path);
    if ((!latest || latest.version < version) && !res.closed) {
      const render = {
        version,
        done: new Promise<void>((settle) => {
          // finished() also calls back for a response that closes before it is asked.
          finished(res, () => {
            if (rendering.get(path) === render) rendering.delete(path);
            settle();
          });
        }),
      };
      rendering.set(path, render);
    }
    return undefined;
  };

  /**
   * A request waits for at most this many renders of a page it has no version of. A
   * render that is not kept (a 404) lets the waiters render for themselves, but another
   * visitor's render may be under way by then: past the last wait a request renders
   * the page itself.
   */
  const MAX_WAITS = 2;

  const lookUp = (
    req: IncomingMessage,
    res: ServerResponse,
    extraHeaders: FlatHeaders | undefined,
    waitsLeft: number,
  ): ServedAnswer | undefined | Promise<ServedAnswer | undefined> => {
    const path = pageCacheKey(req);
    if (path === null) return undefined;
    const version = options.version();
    const page = pages.get(path);
    if (page?.version === version) return answerFrom(page, req, res, extraHeaders, false);
    // Only a render of the current version is worth serving the previous one meanwhile,
    // or waiting for: the first visitor after a write renders the page at once.
    const underWay = rendering.get(path);
    const current = underWay?.version === version ? underWay : undefined;
    if (current && page) return answerFrom(page, req, res, extraHeaders, true);
    if (!current || waitsLeft === 0) {
      // Checked on a miss only, where it costs nothing next to a render: a hit's path
      // was kept, so it is already known to be canonical.
      return isCanonicalPath(path) ? renderFor(req, res, path, version) : undefined;
    }
    return current.done.then(() => lookUp(req, res, extraHeaders, waitsLeft - 1));
  };

  const respond: PageCache["respond"] = (req, res, extraHeaders) => lookUp(req, res, extraHeaders, MAX_WAITS);

  /**
   * A render of the page at `version` that is not kept (gone, an error, a cookie set,
   * too large): an older version of it must not be served any more either.
   */
  const forgetOlder = ({ path, version }: PendingRender) => {
    const page = pages.peek(path);
    if (page && page.version < version) pages.delete(path);
  };

  /** Keeps a rendered page (unless a render at least as new was kept first) and answers from the entry. */
  const keepAndAnswer = async (
    rendered: PendingRender,
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer,
    nonce: string,
  ) => {
    let page = pages.peek(rendered.path);
    if (page?.version !== rendered.version) {
      try {
        page = await pageFrom(rendered.version, res.getHeaders(), body, nonce);
      } catch {
        // Never expected of zlib on a buffer; the visitor still gets the page as rendered.
        res.end(body);
        return;
      }
      // A render that a content write overtook is kept too, as the previous version to
      // serve while the current one renders. lru-cache refuses a page larger than the whole cache.
      const kept = pages.peek(rendered.path);
      if (!kept || kept.version < rendered.version) pages.set(rendered.path, page);
    }
    const answer = answerFor(req, page);
    for (let index = 0; index < answer.headers.length; index += 2) {
      res.setHeader(answer.headers[index] as string, answer.headers[index + 1] as string | string[]);
    }
    res.setHeader(PAGE_CACHE_HEADER, "miss");
    res.statusCode = answer.status;
    res.end(answer.body);
  };

  const capture: RequestHandler = (req, res, next) => {
    const rendered = pending.get(req);
    if (rendered !== undefined) {
      pending.delete(req);
      captureResponse(res, {
        maxBytes: maxBodyBytes,
        holds: () => isStorableResponse(res.statusCode, res.getHeaders(), res.locals.cspNonce),
        onRelease: () => forgetOlder(rendered),
        onComplete: (body) => void keepAndAnswer(rendered, req, res, body, res.locals.cspNonce as string),
      });
    }
    next();
  };

  return { respond, capture };
}
