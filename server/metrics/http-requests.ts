import type { Request, RequestHandler, Response } from "express";
import { type Metrics, OTHER_ROUTE } from "./registry.ts";

/**
 * Counts every request Express answers, once its response is done, under the route
 * pattern that answered it. Page-cache hits never reach Express: server/http/cached-pages.ts
 * counts those.
 */
export function measureRequests(metrics: Metrics): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    res.once("close", () => {
      metrics.observeRequest(req.method, routeLabel(req, res), res.statusCode, (performance.now() - started) / 1000);
    });
    next();
  };
}

/**
 * The pattern that answered: React Router's (app/entry.server.tsx leaves it in the
 * request's values), else the Express route's ("/healthz", "/media/:bucket/:name"),
 * else "/assets/*" for the built assets, else "(other)".
 */
export function routeLabel(req: Request, res: Response): string {
  const fromRouter = (res.locals.requestValues as { routePattern?: string } | undefined)?.routePattern;
  // React Router's patterns have no leading slash ("projects/:slug"); Express's do.
  if (fromRouter !== undefined) return fromRouter.startsWith("/") ? fromRouter : `/${fromRouter}`;
  const expressPath: unknown = req.route?.path;
  if (typeof expressPath === "string") return expressPath;
  if (req.baseUrl === "/assets") return "/assets/*";
  return OTHER_ROUTE;
}
