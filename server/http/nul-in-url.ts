import type { RequestHandler } from "express";
import { NUL_CHARACTER_MESSAGE } from "../validation.ts";

/**
 * A path or query holding an escaped NUL (`%00`) is refused here, once for every page,
 * API and Better Auth endpoint behind it: no route takes one, and on PostgreSQL a
 * lookup by such a value fails as a server error (server/validation.ts). node:http
 * already refuses a raw NUL in the request line.
 */
export const refuseNulInUrl: RequestHandler = (req, res, next) => {
  if (!/%00/i.test(req.originalUrl)) return next();
  res.status(400).type("text/plain").send(NUL_CHARACTER_MESSAGE);
};
