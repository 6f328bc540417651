import path from "node:path";
import compression from "compression";
import express, { type RequestHandler } from "express";
import expressStaticGzip from "express-static-gzip";
import { CLIENT_IP_HEADER } from "../auth/auth.ts";
import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import { FILE_TOO_LARGE_MESSAGE, UPLOAD_BODY_LIMIT_BYTES } from "../media/rules.ts";
import { imageOriginsBesidesSite } from "../media/storage/index.ts";
import type { LocalStorage } from "../media/storage/local.ts";
import { METRICS_PATH, serveMetrics } from "../metrics/endpoint.ts";
import { measureRequests } from "../metrics/http-requests.ts";
import type { Metrics } from "../metrics/registry.ts";
import { limitRequestBody, limitUploadBody } from "./body-limit.ts";
import { privateUnlessDeclared } from "./cache-policy.ts";
import { redirectToCanonicalPath } from "./canonical-path.ts";
import { clientAddress, compileTrust, type TrustFunction } from "./client-address.ts";
import { serveTopLevelClientFiles } from "./client-files.ts";
import { handleUncaughtErrors } from "./errors.ts";
import { healthCheck } from "./health.ts";
import { serveLocalMedia } from "./media-files.ts";
import { refuseNulInUrl } from "./nul-in-url.ts";
import type { PageCache } from "./page-cache/index.ts";
import { logRequests } from "./request-log.ts";
import { refuseForeignOrigin } from "./same-origin.ts";
import { assignCspNonce, securityHeaders } from "./security-headers.ts";
import { refuseTrace } from "./trace-method.ts";

export interface HttpAppOptions {
  config: Config;
  logger: Logger;
  pingDatabase: () => Promise<void>;
  /** Better Auth's endpoints under /api/auth. */
  authHandler: RequestHandler;
  /**
   * The rendered-page cache of anonymous visitors (server/http/page-cache/): its hits are
   * answered before Express (server/http/cached-pages.ts); its misses are captured just
   * before rendering.
   */
  pageCache?: Pick<PageCache, "capture">;
  /** Serves the pages and routes of the React Router app. */
  renderApp: RequestHandler;
  /** Production: the built client folder. Development: Vite's middlewares instead. */
  clientAssets: { directory: string } | { middleware: RequestHandler };
  /** Media on local disk, served at /media/<bucket>/<name>; absent when media lives in S3. */
  localMedia?: LocalStorage;
  /** Counts every request Express answers; with config.metrics.token, also served at GET /metrics. */
  metrics?: Metrics;
}

/** Icons browsers request without a link to them: /favicon.ico, /apple-touch-icon-precomposed.png, … */
const BROWSER_ICON_PATH = /^\/(?:favicon|apple-touch-icon)[\w-]*\.(?:ico|png|svg)$/;

/** POST /api/media, as the router matches it; other spellings keep the default (smaller) limit. */
const UPLOAD_PATH = "/api/media";

/**
 * Hands the client's address (server/http/client-address.ts) to Better Auth (rate limits,
 * session records) and to the routes (the newsletter's per-IP limits) in a header of our
 * own, overwriting any a client sent.
 */
const passClientIp =
  (trust: TrustFunction): RequestHandler =>
  (req, _res, next) => {
    req.headers[CLIENT_IP_HEADER] = clientAddress(req, trust);
    next();
  };

/** The Express application: middleware order matters and is documented inline. */
export function createHttpApp(options: HttpAppOptions): express.Express {
  const { config, logger } = options;
  const app = express();
  app.disable("x-powered-by");
  // Express's req.ip, req.protocol and req.secure use the same trust as everything else.
  const trust = compileTrust(config.trustProxy);
  app.set("trust proxy", trust);

  app.use(logRequests(logger, trust));
  if (options.metrics) app.use(measureRequests(options.metrics));
  app.use(compression());
  // Headers first, so that every answer below (assets, 403, 413, errors) carries them.
  app.use(assignCspNonce);
  app.use(
    securityHeaders({
      imageOrigins: imageOriginsBesidesSite(config),
      allowDevServer: config.env === "development",
    }),
  );
  // An answer that says nothing about caching is kept by no browser or CDN (cache-policy.ts).
  app.use(privateUnlessDeclared);
  app.use(refuseTrace);
  app.use(refuseNulInUrl);

  app.get("/healthz", healthCheck(options.pingDatabase));
  // With METRICS_PORT alone, the metrics are served on that port only.
  if (options.metrics && config.metrics.token) {
    app.all(METRICS_PATH, serveMetrics(options.metrics, { token: config.metrics.token }, logger));
  }
  if (options.localMedia) app.get("/media/:bucket/:name", serveLocalMedia(options.localMedia));
  if ("directory" in options.clientAssets) {
    const { directory } = options.clientAssets;
    // File names under assets/ carry a content hash: they can be cached forever. Their
    // brotli and gzip copies, written by the build, are sent as they are: the compression
    // middleware leaves an answer with a Content-Encoding alone
    // (docs/decisions/021-precompressed-assets.md).
    app.use(
      "/assets",
      expressStaticGzip(path.join(directory, "assets"), {
        enableBrotli: true,
        orderPreference: ["br", "gzip"],
        index: false,
        serveStatic: { immutable: true, maxAge: "1y", index: false, fallthrough: true },
      }),
    );
    app.use(serveTopLevelClientFiles(directory));
  } else {
    app.use(options.clientAssets.middleware);
  }
  // Browsers ask for icons of their own accord (Safari for apple-touch-icon variants,
  // some for favicon.png): one we do not ship is a plain 404, not a "Page not found" page
  // logged as a broken link.
  app.get(BROWSER_ICON_PATH, (_req, res) => {
    res.sendStatus(404);
  });
  // /About and /about/ redirect to /about: one URL, and one cache entry, per page.
  app.use(redirectToCanonicalPath);

  app.use(refuseForeignOrigin({ publicOrigin: config.publicOrigin }));
  // Uploads stream through their own, larger limit; nothing reads their body before the route.
  const uploadLimit = limitUploadBody(UPLOAD_BODY_LIMIT_BYTES, FILE_TOO_LARGE_MESSAGE);
  const defaultLimit = limitRequestBody();
  app.use((req, res, next) => {
    const isUpload = req.method === "POST" && req.path.toLowerCase().replace(/\/+$/, "") === UPLOAD_PATH;
    (isUpload ? uploadLimit : defaultLimit)(req, res, next);
  });
  app.use(passClientIp(trust));
  app.all("/api/auth/{*splat}", options.authHandler);
  if (options.pageCache) app.use(options.pageCache.capture);
  app.use(options.renderApp);
  app.use(handleUncaughtErrors);
  return app;
}
