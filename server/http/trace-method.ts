import type { RequestHandler } from "express";

/**
 * TRACE echoes a request back to its sender (cross-site tracing), and no resource here
 * answers it. It must not reach the renderer either: React Router renders from a Fetch
 * API Request, which refuses to be made with TRACE (undici throws, an answer 500). So it
 * gets a 405 from here, with the methods the site's pages take. The other methods the
 * Fetch API refuses never reach the app: node:http refuses TRACK as malformed and hands
 * CONNECT to its own "connect" event.
 */
export const refuseTrace: RequestHandler = (req, res, next) => {
  if (req.method !== "TRACE") return next();
  res.status(405).set("Allow", "GET, HEAD, POST").type("text/plain").send("Method Not Allowed");
};
