import type { RequestHandler } from "express";

/** Default limit for form posts and JSON bodies. Uploads get their own, larger limit. */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Answers 413, before any byte of the body is read, when its declared length
 * exceeds maxBytes. Bodies without a Content-Length (chunked) are refused with 411:
 * browsers always declare the length of forms and fetch bodies, and counting a
 * stream that the router is already reading could let a partly read request reach
 * an action. See docs/decisions/004-request-body-limits.md.
 */
export function limitRequestBody(maxBytes: number = DEFAULT_BODY_LIMIT_BYTES): RequestHandler {
  return (req, res, next) => {
    const declared = req.get("content-length");
    if (declared === undefined) {
      if (req.get("transfer-encoding") === undefined) return next();
      res
        .status(411)
        .set("Connection", "close")
        .type("text/plain")
        .send("Length Required: send a Content-Length header.");
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
 * the limit (server/media/multipart.ts), so nothing oversized is ever buffered.
 */
export function limitUploadBody(maxBytes: number, message: string): RequestHandler {
  return (req, res, next) => {
    const declared = req.get("content-length");
    if (declared !== undefined && Number(declared) > maxBytes) {
      res.status(413).set({ Connection: "close", "Cache-Control": "no-store" }).json({ error: message });
      return;
    }
    next();
  };
}
