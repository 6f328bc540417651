import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { fromTrustedProxy, type TrustFunction } from "./client-address.ts";

/**
 * Every request has an id, sent back in X-Request-Id and written as `reqId` in each
 * log line about it, so that a visitor's or a proxy's report leads to the lines. A
 * trusted proxy's id (nginx's $request_id, a CDN's) is kept, so one id follows the
 * request through every log; from anyone else, or when it is not a short token that is
 * safe to log, a new one is made.
 */

export const REQUEST_ID_HEADER = "x-request-id";
const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

type WithId = IncomingMessage & { id?: unknown };

/** The request's id, chosen on first use and remembered on the request (pino-http's req.id). */
export function requestIdOf(req: IncomingMessage, trust: TrustFunction): string {
  const known = (req as WithId).id;
  if (typeof known === "string") return known;
  const incoming = req.headers[REQUEST_ID_HEADER];
  const id =
    typeof incoming === "string" && SAFE_REQUEST_ID.test(incoming) && fromTrustedProxy(req, trust)
      ? incoming
      : randomUUID();
  (req as WithId).id = id;
  return id;
}

/** Chooses the request's id and sets it on the response, unless that is done already. */
export function assignRequestId(req: IncomingMessage, res: ServerResponse, trust: TrustFunction): string {
  const id = requestIdOf(req, trust);
  if (!res.headersSent && !res.hasHeader(REQUEST_ID_HEADER)) res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}
