import { once } from "node:events";
import busboy from "busboy";
import { Invalid, TooLarge } from "../errors.ts";
import { holdsNulCharacter, NUL_CHARACTER_MESSAGE } from "../validation.ts";
import { FILE_TOO_LARGE_MESSAGE, MAX_IMAGE_BYTES } from "./rules.ts";

/**
 * Reads an image upload (multipart/form-data, the image in the field `file`) from a
 * request's body as it streams: the file is counted while it arrives, and reading
 * stops just past the limit, so an oversized body is never held in memory. The
 * caller answers with `Connection: close` then (the rest of the body is never read).
 */

export const NO_FILE_MESSAGE = "No image was sent: send it as multipart/form-data in a field named “file”.";
export const MALFORMED_UPLOAD_MESSAGE = "The upload could not be read. Please try again.";

export interface ImageUpload {
  bytes: Buffer;
  /** The name the client gave the file (never used for anything but display). */
  filename: string | null;
  /** Text fields sent along (e.g. alt). */
  fields: Record<string, string>;
}

export async function readImageUpload(request: Request, maxFileBytes = MAX_IMAGE_BYTES): Promise<ImageUpload> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType) || !request.body) throw new Invalid({ file: NO_FILE_MESSAGE });
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      // Browsers and curl send a file's name as raw UTF-8 bytes; busboy would read them as latin1.
      defParamCharset: "utf8",
      // Busboy signals the limit when a file reaches it: one byte more tells "over" from "exactly".
      limits: { files: 1, fileSize: maxFileBytes + 1, fields: 4, fieldSize: 4096, parts: 8, headerPairs: 16 },
    });
  } catch {
    throw new Invalid({ file: MALFORMED_UPLOAD_MESSAGE });
  }

  let file: { chunks: Buffer[]; filename: string | null; ended: Promise<unknown> } | undefined;
  let tooLarge = false;
  let failed = false;
  const fields: Record<string, string> = {};
  parser.on("file", (name, stream, info) => {
    if (name !== "file" || file) {
      stream.resume();
      return;
    }
    const ended = once(stream, "end").catch(() => {});
    const current = { chunks: [] as Buffer[], filename: info.filename || null, ended };
    file = current;
    stream.on("data", (chunk: Buffer) => current.chunks.push(chunk));
    // Busboy stops passing data on at the limit: the byte past 5 MB was the last one read.
    stream.once("limit", () => {
      tooLarge = true;
    });
  });
  parser.on("field", (name, value) => {
    fields[name] = value;
  });
  parser.on("error", () => {
    failed = true;
  });
  // An error is recorded above and reported after the loop; these only wait.
  const closed = once(parser, "close").catch(() => {});
  const drained = () => once(parser, "drain").catch(() => {});

  const reader = request.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!parser.write(value)) await Promise.race([drained(), closed]);
      if (tooLarge) throw new TooLarge(FILE_TOO_LARGE_MESSAGE);
      if (failed) throw new Invalid({ file: MALFORMED_UPLOAD_MESSAGE });
    }
    parser.end();
    await closed;
  } finally {
    reader.releaseLock();
  }
  if (tooLarge) throw new TooLarge(FILE_TOO_LARGE_MESSAGE);
  if (failed) throw new Invalid({ file: MALFORMED_UPLOAD_MESSAGE });
  if (!file) throw new Invalid({ file: NO_FILE_MESSAGE });
  if (holdsNulCharacter([file.filename, fields])) throw new Invalid({ file: NUL_CHARACTER_MESSAGE });
  await file.ended;
  return { bytes: Buffer.concat(file.chunks), filename: file.filename, fields };
}
