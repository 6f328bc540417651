import * as serverBuild from "virtual:react-router/server-build";
import { createRequestHandler } from "@react-router/express";
import type { RequestHandler } from "express";
import { RouterContextProvider } from "react-router";
import type { AppServices } from "../server/services.ts";
import { type RequestValues, requestContext, servicesContext } from "./context.ts";

/**
 * The entry of the server bundle (vite.config.ts). It is built together with the
 * routes so the router context keys exist once: the services created by
 * server/serve.ts are handed to the routes through them. It lives in app/ because it
 * sets the app's context keys; server/serve.ts loads it by path, never by an import.
 */
export function createReactRouterHandler(services: AppServices): RequestHandler {
  // React Router refuses an action whose Origin is not its request URL's, a URL it
  // builds from the Host header and the protocol. Behind a proxy that ends TLS (without
  // TRUST_PROXY) or sends a Host of its own, every form posted from PUBLIC_URL would
  // answer 400. PUBLIC_URL's host is allowed as well: server/http/same-origin.ts, which
  // runs first and compares whole origins, has already let only our own through.
  const build = { ...serverBuild, allowedActionOrigins: [new URL(services.config.publicOrigin).host] };
  const handle = createRequestHandler({
    // The build as an object, not a function returning it: given a function, React
    // Router derives its routes again on every request (about 8% of a render). In
    // development Vite loads this module afresh for every request (server/serve.ts), so
    // edits still show.
    build,
    mode: services.config.env === "development" ? "development" : "production",
    getLoadContext(_req, res) {
      const context = new RouterContextProvider();
      context.set(servicesContext, services);
      // The same object stays in res.locals, where the Express layer reads what the router
      // added to it (the matched route pattern, for the metrics).
      const values: RequestValues = { cspNonce: res.locals.cspNonce as string, requestId: String(res.req.id) };
      res.locals.requestValues = values;
      context.set(requestContext, values);
      return context;
    },
  });
  // React Router answers a HEAD without rendering its body, so without the headers its
  // GET gets from the render: Content-Type, and the page cache's ETag and Cache-Control
  // (server/http/page-cache/ stores a page from a render's body). A HEAD is rendered as
  // its GET instead, and node:http sends none of the body. The adapter reads the method
  // as it builds its request, before its first await: for everything after that, the
  // request is a HEAD again.
  return (req, res, next) => {
    if (req.method !== "HEAD") return handle(req, res, next);
    req.method = "GET";
    try {
      return handle(req, res, next);
    } finally {
      req.method = "HEAD";
    }
  };
}
