import type { ImageFormat } from "./image-type.ts";

/**
 * Files that are an image and something else at once (a polyglot: an image followed
 * by HTML or an archive, a GIF header in front of a script, markup hidden in a
 * comment or metadata field). Re-encoding already drops everything but the pixels;
 * refusing such files as well tells the uploader plainly, and keeps them out of the
 * pipeline altogether.
 *
 * PNG, GIF and WebP must end exactly where their structure ends. JPEG may carry data
 * after its end marker (further images of a multi-picture file, camera trailers,
 * motion-photo video), so there only the signatures of archives and documents count.
 */

/** Markup a browser would act on; long enough not to occur by chance in compressed data. */
const MARKUP = /<(?:script|html|body|iframe|object|embed)[\s>/]|<svg[\s>]|<!doctype\s+html|<\?php|javascript:/i;
/** Archives, documents and executables appended to a JPEG. */
const APPENDED_SIGNATURES = ["PK\u0003\u0004", "%PDF-", "\u007fELF", "Rar!"];

export function isPolyglot(bytes: Buffer, format: ImageFormat): boolean {
  if (MARKUP.test(bytes.toString("latin1"))) return true;
  switch (format) {
    case "png":
      return pngEnd(bytes) !== bytes.length;
    case "gif":
      return gifEnd(bytes) !== bytes.length;
    case "webp":
      return webpEnd(bytes) !== bytes.length;
    case "jpeg": {
      const end = jpegEnd(bytes);
      if (end === undefined) return true;
      const trailer = bytes.subarray(end).toString("latin1");
      return APPENDED_SIGNATURES.some((signature) => trailer.includes(signature));
    }
  }
}

/** Offset just past the IEND chunk, or undefined when the chunks do not add up. */
function pngEnd(bytes: Buffer): number | undefined {
  let offset = 8;
  while (offset + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString("latin1", offset + 4, offset + 8);
    offset += 12 + length;
    if (type === "IEND") return offset;
  }
  return undefined;
}

/** Offset just past the trailer (or the last block when a lenient encoder left it out). */
function gifEnd(bytes: Buffer): number | undefined {
  const colorTableSize = (flags: number) => (flags & 0x80 ? 3 * 2 ** ((flags & 0x07) + 1) : 0);
  const skipSubBlocks = (start: number): number | undefined => {
    let offset = start;
    for (;;) {
      const size = bytes[offset];
      if (size === undefined) return undefined;
      offset += 1 + size;
      if (size === 0) return offset;
    }
  };
  const screenFlags = bytes[10];
  if (screenFlags === undefined) return undefined;
  let offset: number | undefined = 13 + colorTableSize(screenFlags);
  while (offset !== undefined && offset < bytes.length) {
    const block = bytes[offset];
    if (block === 0x3b) return offset + 1;
    if (block === 0x21) {
      offset = skipSubBlocks(offset + 2);
    } else if (block === 0x2c) {
      const imageFlags = bytes[offset + 9];
      if (imageFlags === undefined) return undefined;
      // The descriptor, the local colour table, then the LZW minimum code size.
      offset = skipSubBlocks(offset + 10 + colorTableSize(imageFlags) + 1);
    } else {
      return undefined;
    }
  }
  return offset;
}

/** The RIFF container's declared end. */
function webpEnd(bytes: Buffer): number | undefined {
  if (bytes.length < 12) return undefined;
  return 8 + bytes.readUInt32LE(4);
}

/** Offset just past the first end-of-image marker, walking segments and entropy-coded data. */
function jpegEnd(bytes: Buffer): number | undefined {
  let offset = 2;
  while (offset + 1 < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1] as number;
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (marker === 0xd9) return offset + 2;
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      offset += 2;
      continue;
    }
    if (offset + 4 > bytes.length) return undefined;
    offset += 2 + bytes.readUInt16BE(offset + 2);
    if (marker === 0xda) offset = skipEntropyCodedData(bytes, offset);
  }
  return undefined;
}

/** Scan data runs until a marker other than a stuffed 0xFF00 or a restart marker. */
function skipEntropyCodedData(bytes: Buffer, start: number): number {
  let offset = start;
  while (offset + 1 < bytes.length) {
    if (bytes[offset] === 0xff) {
      const next = bytes[offset + 1] as number;
      if (next !== 0x00 && !(next >= 0xd0 && next <= 0xd7) && next !== 0xff) return offset;
    }
    offset++;
  }
  return bytes.length;
}
