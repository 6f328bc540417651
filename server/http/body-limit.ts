import type { Request, RequestHandler } from "express";

/** Default limit for form posts and JSON bodies. Uploads get their own, larger limit. */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

const LENGTH_REQUIRED = "Length Required: send a Content-Length header (0 for no body).";

/** Methods whose requests need no body: without one, they need no length either. */
const BODILESS_METHODS = new Set(["DELETE", "OPTIONS"]);

/**
 * Whether a request declares no body (neither Content-Length nor Transfer-Encoding) where
 * one may be read: any method but GET and HEAD, and DELETE or OPTIONS only when it names
 * a body type. Node hands such a request over with its body stream already ended, which a
 * reader would wait on forever (server/http/listeners.ts). Browsers declare a length on
 * every POST and PUT, 0 for none; a DELETE without a body (the media API's) needs none.
 */
function isUndeclaredBody(req: Request): boolean {
  if (req.method === "GET" || req.method === "HEAD") return false;
  if (req.get("content-length") !== undefined || req.get("transfer-encoding") !== undefined) return false;
  return !BODILESS_METHODS.has(req.method) || req.get("content-type") !== undefined;
}

/**
 * Answers 413, before any byte of the body is read, when its declared length
 * exceeds maxBytes. Bodies without a Content-Length (chunked) are refused with 411:
 * browsers always declare the length of forms and fetch bodies, and counting a
 * stream that the router is already reading could let a partly read request reach
 * an action. So are requests that may carry a body but declare none (isUndeclaredBody).
 * See docs/decisions/004-request-body-limits.md.
 */
export function limitRequestBody(maxBytes: number = DEFAULT_BODY_LIMIT_BYTES): RequestHandler {
  return (req, res, next) => {
    const declared = req.get("content-length");
    if (declared === undefined) {
      if (req.get("transfer-encoding") === undefined && !isUndeclaredBody(req)) return next();
      res.status(411).set("Connection", "close").type("text/plain").send(LENGTH_REQUIRED);
      return;
    }
    if (Number(declared) > maxBytes) {
      res
        .status(413)
        .set("Connection", "close")
        .type("text/plain")
        .send(`Payload Too Large: request bodies are limited to ${Math.floor(maxBytes / 1024)} KB.`);
      return;
    }
    next();
  };
}

/**
 * The image upload's limit: 413 with `message` as JSON `{ error }` when the declared
 * length exceeds maxBytes, before any of the body is read. A chunked body is let
 * through: the upload counts the file while it streams and stops reading just past
 * the limit (server/media/multipart.ts), so nothing oversized is ever buffered. An
 * upload that declares no body at all is refused with 411 (isUndeclaredBody).
 */
export function limitUploadBody(maxBytes: number, message: string): RequestHandler {
  return (req, res, next) => {
    if (isUndeclaredBody(req)) {
      res.status(411).set({ Connection: "close", "Cache-Control": "no-store" }).json({ error: LENGTH_REQUIRED });
      return;
    }
    const declared = req.get("content-length");
    if (declared !== undefined && Number(declared) > maxBytes) {
      res.status(413).set({ Connection: "close", "Cache-Control": "no-store" }).json({ error: message });
      return;
    }
    next();
  };
}
