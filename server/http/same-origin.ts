import type { RequestHandler } from "express";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses state-changing requests sent by a browser from another site (CSRF).
 * Browsers send Origin on every non-GET request and Sec-Fetch-Site where supported;
 * clients that send neither (curl, API clients with tokens) are not browsers
 * acting for a visitor and are let through to their own authentication.
 */
export function refuseForeignOrigin(options: { publicOrigin: string }): RequestHandler {
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();

    const origin = req.get("origin");
    const fetchSite = req.get("sec-fetch-site");
    const ownOrigins = new Set([options.publicOrigin, `${req.protocol}://${req.get("host")}`]);

    const foreign =
      (origin !== undefined && !ownOrigins.has(origin)) || fetchSite === "cross-site" || fetchSite === "same-site";
    if (!foreign) return next();

    req.log?.warn({ origin, fetchSite }, "Refused a cross-origin request");
    res.status(403).type("text/plain").send("Forbidden: cross-origin requests are not accepted.");
  };
}
