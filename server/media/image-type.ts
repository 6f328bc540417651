import { fileTypeFromBuffer } from "file-type";
import type { MEDIA_FORMATS } from "../db/schema.ts";
import { Invalid } from "../errors.ts";
import { INVALID_FILE_TYPE_MESSAGE } from "./rules.ts";

/**
 * What an image is, decided from its bytes alone: the name and declared type of an
 * upload (or the Content-Type of a fetched URL) are never asked.
 */

export type ImageFormat = (typeof MEDIA_FORMATS)[number];

export interface ImageType {
  format: ImageFormat;
  mime: `image/${ImageFormat}`;
  /** The extension files of this type are stored with. */
  extension: "jpg" | "png" | "webp" | "gif";
}

export const IMAGE_TYPES: Record<ImageFormat, ImageType> = {
  jpeg: { format: "jpeg", mime: "image/jpeg", extension: "jpg" },
  png: { format: "png", mime: "image/png", extension: "png" },
  webp: { format: "webp", mime: "image/webp", extension: "webp" },
  gif: { format: "gif", mime: "image/gif", extension: "gif" },
};

/** Signatures file-type reports for the four accepted formats (an APNG is a PNG whose first frame is kept). */
const DETECTED: Record<string, ImageFormat> = {
  "image/jpeg": "jpeg",
  "image/png": "png",
  "image/apng": "png",
  "image/webp": "webp",
  "image/gif": "gif",
};

export function invalidFileType(): Invalid {
  return new Invalid({ file: INVALID_FILE_TYPE_MESSAGE });
}

/** The image type of these bytes; Invalid with the spec's text for anything else (SVG, HTML, text, …). */
export async function detectImageType(bytes: Uint8Array): Promise<ImageType> {
  const detected = await fileTypeFromBuffer(bytes);
  const format = detected ? DETECTED[detected.mime] : undefined;
  if (!format) throw invalidFileType();
  return IMAGE_TYPES[format];
}

/** The type of a stored file, from the extension written from its detected type. */
export function imageTypeOfName(name: string): ImageType | undefined {
  const extension = name.slice(name.lastIndexOf(".") + 1);
  return Object.values(IMAGE_TYPES).find((type) => type.extension === extension);
}
