import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
// Imported rather than read from the global scope: `performance` is a lazily defined
// accessor of the global object, whose lookup on every hit cost more than the clock read.
import { performance } from "node:perf_hooks";
import type { PageViewCounter, ServedAnswer } from "../analytics/page-views.ts";
import type { Logger } from "../logger.ts";
import { type Metrics, PAGE_CACHE_ROUTE } from "../metrics/registry.ts";
import { compileTrust, isSecure, type TrustProxy } from "./client-address.ts";
import type { PageCache } from "./page-cache/index.ts";
import { chooseRequestId, REQUEST_ID_HEADER, rememberRequestId } from "./request-id.ts";
import { STRICT_TRANSPORT_SECURITY } from "./security-headers.ts";

/**
 * The server's request listener (docs/decisions/008-page-cache.md): it answers page
 * cache hits itself, from their precomputed responses, and hands everything else to the
 * Express application. Express's per-request cost (pino-http, compression, a nonce,
 * helmet, routing) is most of the time a hit takes, and a hit needs none of it: its
 * headers, the security baseline included, were captured from the response that
 * rendered the page. What a hit still gets here: HSTS exactly when the middleware would
 * send it, its X-Request-Id, the request's log line and its count in the metrics (one
 * histogram observation). Every page view, of a hit or of a response Express writes, is
 * counted here, and every request gets its id here (server/http/request-id.ts).
 */

export interface CachedPagesOptions {
  pageCache: Pick<PageCache, "respond">;
  logger: Logger;
  /** Config.trustProxy: which proxies' X-Forwarded-Proto and X-Request-Id are believed (server/http/client-address.ts). */
  trustProxy: TrustProxy;
  pageViews: Pick<PageViewCounter, "observe" | "recordServed">;
  /** Counts the hits; Express counts the rest (server/metrics/http-requests.ts). */
  metrics?: Pick<Metrics, "observeRequest">;
  /** Answers everything that is not a hit: the Express application. */
  next: RequestListener;
}

const HSTS: string[] = ["strict-transport-security", STRICT_TRANSPORT_SECURITY];

export function serveCachedPagesFirst(options: CachedPagesOptions): RequestListener {
  const { pageCache, logger, pageViews, metrics, next } = options;
  const trust = compileTrust(options.trustProxy);
  const finish = (req: IncomingMessage, res: ServerResponse, id: string, started: number, served?: ServedAnswer) => {
    if (!served) {
      rememberRequestId(req, id);
      res.setHeader(REQUEST_ID_HEADER, id);
      pageViews.observe(req, res);
      next(req, res);
      return;
    }
    // Up to the answer's end being queued (page-cache/ends-together.ts): it goes out
    // with the others of this turn, microseconds later.
    const elapsedMs = performance.now() - started;
    metrics?.observeRequest(req.method, PAGE_CACHE_ROUTE, served.status, elapsedMs / 1000);
    pageViews.recordServed(req, served);
    if (!logger.isLevelEnabled("info")) return;
    // The line server/http/request-log.ts writes for every other request.
    const path = (req.url ?? "").split("?")[0];
    logger.info(
      {
        reqId: id,
        req: { method: req.method, path },
        res: { status: served.status },
        durationMs: Math.round(elapsedMs),
      },
      `${req.method} ${path} ${served.status}`,
    );
  };

  return (req, res) => {
    const started = performance.now();
    const id = chooseRequestId(req, trust);
    const extraHeaders = isSecure(req, trust) ? [...HSTS, REQUEST_ID_HEADER, id] : [REQUEST_ID_HEADER, id];
    const served = pageCache.respond(req, res, extraHeaders);
    if (!(served instanceof Promise)) return finish(req, res, id, started, served);
    // A render of this page is under way: answered from it once it is stored.
    served.then(
      (page) => finish(req, res, id, started, page),
      (error: unknown) => {
        logger.error({ err: error, reqId: id }, "Waiting for a page render failed");
        finish(req, res, id, started, undefined);
      },
    );
  };
}
