import type { RequestHandler } from "express";
import { hasAuthCookie } from "../auth/session-cookie.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses state-changing requests that may be forged by another site (CSRF):
 * - one a browser sends from another site: its Origin is not ours, or its
 *   Sec-Fetch-Site says cross-site or same-site;
 * - one carrying our session cookie without saying where it comes from (neither
 *   Origin nor Sec-Fetch-Site: same-origin). Browsers send Origin on every non-GET
 *   request, so only an old browser, a plugin or a forging tool sends a cookie without
 *   it; Better Auth's own endpoints refuse the same request.
 * Clients without our cookie (curl, API clients with tokens, mail providers' one-click
 * unsubscribe) act for no signed-in visitor and go on to their own authentication.
 */
export function refuseForeignOrigin(options: { publicOrigin: string }): RequestHandler {
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();

    const origin = req.get("origin");
    const fetchSite = req.get("sec-fetch-site");
    const ownOrigins = new Set([options.publicOrigin, `${req.protocol}://${req.get("host")}`]);

    const foreign =
      (origin !== undefined && !ownOrigins.has(origin)) || fetchSite === "cross-site" || fetchSite === "same-site";
    const unvouchedCookie = origin === undefined && fetchSite !== "same-origin" && hasAuthCookie(req.headers.cookie);
    if (!foreign && !unvouchedCookie) return next();

    req.log?.warn({ origin, fetchSite, withCookie: unvouchedCookie }, "Refused a cross-origin request");
    res
      .status(403)
      .type("text/plain")
      .send(
        unvouchedCookie
          ? "Forbidden: a signed-in request must say where it comes from (Origin or Sec-Fetch-Site)."
          : "Forbidden: cross-origin requests are not accepted.",
      );
  };
}
