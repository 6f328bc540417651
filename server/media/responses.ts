import { describeError, TooLarge } from "../errors.ts";
import type { Logger } from "../logger.ts";
import { MediaInUse } from "./library.ts";

/** JSON answers of the media API (app/routes/api/media*.ts). */

const NO_STORE = { "Cache-Control": "no-store" };

export function mediaJson(body: unknown, status = 200): Response {
  return Response.json(body, { status, headers: NO_STORE });
}

/**
 * `{ error, fields?, usage? }` with the error's status; an unexpected error is logged and
 * answered with the spec's fallback text ("Failed to upload image", "Failed to delete image").
 * A refused oversized upload closes the connection: the rest of its body is never read.
 */
export function mediaErrorResponse(error: unknown, fallback: string, logger: Logger): Response {
  const { status, message, fields, expected } = describeError(error);
  if (!expected) logger.error({ err: error }, fallback);
  const body = {
    error: expected ? message : fallback,
    ...(Object.keys(fields).length > 0 ? { fields } : {}),
    ...(error instanceof MediaInUse ? { usage: error.usage } : {}),
  };
  const headers = new Headers(NO_STORE);
  if (error instanceof TooLarge) headers.set("Connection", "close");
  return Response.json(body, { status, headers });
}
