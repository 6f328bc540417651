import { randomFillSync } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { fromTrustedProxy, type TrustFunction } from "./client-address.ts";

/**
 * Every request has an id, sent back in X-Request-Id and written as `reqId` in each
 * log line about it, so that a visitor's or a proxy's report leads to the lines. A
 * trusted proxy's id (nginx's $request_id, a CDN's) is kept, so one id follows the
 * request through every log; from anyone else, or when it is not a short token that is
 * safe to log, a new one is made: 16 random bytes in hexadecimal, the form of nginx's
 * $request_id.
 */

export const REQUEST_ID_HEADER = "x-request-id";
const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

type WithId = IncomingMessage & { id?: unknown };

const ID_BYTES = 16;
const IDS_PER_DRAW = 256;
/**
 * Random bytes for the next 256 ids, drawn in one call. Each id is then its own bytes
 * in hexadecimal, a string of its own: a slice of one hexadecimal text for all 256 (a
 * third of the time to make) made V8 copy every line of the response's header text one
 * by one when it flattened the text to write it, about 1,800 instructions a request
 * against 500 for making the id (docs/decisions/015-metrics-and-request-ids.md).
 */
const randomBytes = Buffer.alloc(ID_BYTES * IDS_PER_DRAW);
let byteOffset = randomBytes.length;

function newRequestId(): string {
  if (byteOffset === randomBytes.length) {
    randomFillSync(randomBytes);
    byteOffset = 0;
  }
  const id = randomBytes.toString("hex", byteOffset, byteOffset + ID_BYTES);
  byteOffset += ID_BYTES;
  return id;
}

/**
 * The id of a request: its trusted proxy's, or a new one. Not remembered: the page
 * cache's fast path needs it once, and a property added to every request would give
 * Node's own HTTP code one more shape of request to handle.
 */
export function chooseRequestId(req: IncomingMessage, trust: TrustFunction): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  return typeof incoming === "string" && SAFE_REQUEST_ID.test(incoming) && fromTrustedProxy(req, trust)
    ? incoming
    : newRequestId();
}

/** Remembers the request's id on the request, as pino-http's req.id, for everything after the listener. */
export function rememberRequestId(req: IncomingMessage, id: string): void {
  (req as WithId).id = id;
}

/** The request's id, chosen on first use and remembered on the request (pino-http's req.id). */
export function requestIdOf(req: IncomingMessage, trust: TrustFunction): string {
  const known = (req as WithId).id;
  if (typeof known === "string") return known;
  const id = chooseRequestId(req, trust);
  rememberRequestId(req, id);
  return id;
}

/** Chooses the request's id and sets it on the response, unless that is done already. */
export function assignRequestId(req: IncomingMessage, res: ServerResponse, trust: TrustFunction): string {
  const id = requestIdOf(req, trust);
  if (!res.headersSent && !res.hasHeader(REQUEST_ID_HEADER)) res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}
