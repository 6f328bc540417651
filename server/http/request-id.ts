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
 * The next ids' text: random bytes for 256 ids drawn and turned into hexadecimal in one
 * native call, each id then a slice of it: about 30 ns per id, against 70 ns for one
 * native call per id and 120 ns for randomUUID, which builds its text by 20
 * concatenations (docs/decisions/015-metrics-and-request-ids.md).
 */
const randomBytes = Buffer.alloc(ID_BYTES * IDS_PER_DRAW);
let randomHex = "";
let hexOffset = 0;

function newRequestId(): string {
  if (hexOffset === randomHex.length) {
    randomHex = randomFillSync(randomBytes).toString("hex");
    hexOffset = 0;
  }
  const id = randomHex.slice(hexOffset, hexOffset + ID_BYTES * 2);
  hexOffset += ID_BYTES * 2;
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
