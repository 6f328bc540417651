import type { IncomingMessage, RequestListener } from "node:http";
import type { TLSSocket } from "node:tls";
import type { PageViewCounter } from "../analytics/page-views.ts";
import type { Logger } from "../logger.ts";
import type { PageCache } from "./page-cache/index.ts";
import { STRICT_TRANSPORT_SECURITY } from "./security-headers.ts";

/**
 * The server's request listener (docs/decisions/008-page-cache.md): it answers page
 * cache hits itself, from their precomputed responses, and hands everything else to the
 * Express application. Express's per-request cost (pino-http, compression, a nonce,
 * helmet, routing) is most of the time a hit takes, and a hit needs none of it: its
 * headers, the security baseline included, were captured from the response that
 * rendered the page. What a hit still gets here: HSTS exactly when the middleware would
 * send it, and the request's log line. Every page view, of a hit or of a response
 * Express writes, is counted here.
 */

export interface CachedPagesOptions {
  pageCache: Pick<PageCache, "respond">;
  logger: Logger;
  /** Config.trustProxy: whether X-Forwarded-Proto is believed (Express's "trust proxy"). */
  trustProxy: boolean;
  pageViews: Pick<PageViewCounter, "observe" | "recordServed">;
  /** Answers everything that is not a hit: the Express application. */
  next: RequestListener;
}

const HSTS: string[] = ["strict-transport-security", STRICT_TRANSPORT_SECURITY];

/** Express's req.secure: TLS on this socket, or (trusted proxy only) the first X-Forwarded-Proto. */
export function isSecure(req: IncomingMessage, trustProxy: boolean): boolean {
  if ((req.socket as TLSSocket).encrypted) return true;
  if (!trustProxy) return false;
  const forwarded = req.headers["x-forwarded-proto"];
  return typeof forwarded === "string" && forwarded.split(",")[0]?.trim() === "https";
}

export function serveCachedPagesFirst(options: CachedPagesOptions): RequestListener {
  const { pageCache, logger, trustProxy, pageViews, next } = options;
  return (req, res) => {
    const started = Date.now();
    const served = pageCache.respond(req, res, isSecure(req, trustProxy) ? HSTS : undefined);
    if (!served) {
      pageViews.observe(req, res);
      next(req, res);
      return;
    }
    pageViews.recordServed(req, served.status, served.contentType);
    if (!logger.isLevelEnabled("info")) return;
    // The line server/http/request-log.ts writes for every other request.
    const path = (req.url ?? "").split("?")[0];
    logger.info(
      { req: { method: req.method, path }, res: { status: served.status }, durationMs: Date.now() - started },
      `${req.method} ${path} ${served.status}`,
    );
  };
}
