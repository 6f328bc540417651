import type { Metadata, Sharp } from "sharp";
import { Invalid, TooLarge } from "../errors.ts";
import { detectImageType, IMAGE_TYPES, type ImageType, invalidFileType } from "./image-type.ts";
import { isPolyglot } from "./polyglot.ts";
import {
  FILE_TOO_LARGE_MESSAGE,
  MAX_IMAGE_BYTES,
  MAX_IMAGE_PIXELS,
  TOO_MANY_PIXELS_MESSAGE,
  VARIANT_WIDTHS,
} from "./rules.ts";

/**
 * Every image is decoded and written anew: orientation applied, all metadata (EXIF,
 * GPS, XMP, IPTC, comments) left behind, colours converted to sRGB and tagged so,
 * animation kept. Nothing of the uploaded bytes but the pixels reaches storage.
 */

/**
 * sharp and libvips, loaded with the first image: a server that receives none never
 * holds them (several MB of heap and native code, measured in decision 018). Uploads are
 * rare and large: libvips' operation cache would only hold memory, and one thread per
 * image leaves the other cores to the web server (see bench:media).
 */
type SharpConstructor = typeof import("sharp")["default"];
let loadingSharp: Promise<SharpConstructor> | undefined;
function loadSharp(): Promise<SharpConstructor> {
  loadingSharp ??= import("sharp").then(({ default: sharp }) => {
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  });
  return loadingSharp;
}

/** A runaway decode or encode is stopped rather than left holding a thread. */
const ENCODE_TIMEOUT_SECONDS = 60;

export interface EncodedImage {
  type: ImageType;
  width: number;
  height: number;
  data: Buffer;
}

export interface ProcessedImage {
  /** The whole image, re-encoded in its own format. */
  original: EncodedImage;
  /** Narrower copies, widest last per format: WebP, and the original format when that is not WebP. */
  variants: EncodedImage[];
}

/** Checks and re-encodes an image; Invalid or TooLarge with a message for people when it cannot be used. */
export async function processImage(bytes: Buffer): Promise<ProcessedImage> {
  if (bytes.length > MAX_IMAGE_BYTES) throw new TooLarge(FILE_TOO_LARGE_MESSAGE);
  const type = await detectImageType(bytes);
  if (isPolyglot(bytes, type.format)) throw invalidFileType();
  const sharp = await loadSharp();
  const header = await readHeader(sharp, bytes, type);
  const animated = (header.pages ?? 1) > 1;
  const { width, height } = header.autoOrient;

  const encode = async (target: ImageType, resizeTo?: number): Promise<EncodedImage> => {
    let pipeline = sharp(bytes, { animated, limitInputPixels: MAX_IMAGE_PIXELS, failOn: "truncated" })
      .timeout({ seconds: ENCODE_TIMEOUT_SECONDS })
      .autoOrient();
    if (resizeTo !== undefined) pipeline = pipeline.resize({ width: resizeTo, withoutEnlargement: true });
    try {
      const { data, info } = await writeAs(pipeline, target).toBuffer({ resolveWithObject: true });
      // Animated images report the height of all frames together; the image is one frame high.
      return { type: target, width: info.width, height: info.pageHeight ?? info.height, data };
    } catch (error) {
      throw decodeFailure(error);
    }
  };

  const original = await encode(type);
  const formats = type.format === "webp" ? [IMAGE_TYPES.webp] : [IMAGE_TYPES.webp, type];
  const variants: EncodedImage[] = [];
  for (const format of formats) {
    for (const variantWidth of VARIANT_WIDTHS.filter((candidate) => candidate < width)) {
      variants.push(await encode(format, variantWidth));
    }
  }
  return { original: { ...original, width, height }, variants };
}

/**
 * The image's header only: dimensions, frames and orientation, without decoding
 * pixels. A decompression bomb (a small file declaring a huge canvas) stops here.
 */
async function readHeader(sharp: SharpConstructor, bytes: Buffer, type: ImageType): Promise<Metadata> {
  let header: Metadata;
  try {
    header = await sharp(bytes).metadata();
  } catch (error) {
    throw decodeFailure(error);
  }
  if (header.format !== type.format || !header.width || !header.height) throw invalidFileType();
  // Without `animated`, height is that of one frame and pages counts the frames.
  if (header.width * header.height * (header.pages ?? 1) > MAX_IMAGE_PIXELS) {
    throw new Invalid({ file: TOO_MANY_PIXELS_MESSAGE });
  }
  return header;
}

function writeAs(pipeline: Sharp, target: ImageType): Sharp {
  switch (target.format) {
    case "jpeg":
      return pipeline.jpeg({ quality: 82 }).withIccProfile("srgb");
    case "png":
      return pipeline.png().withIccProfile("srgb");
    case "webp":
      return pipeline.webp({ quality: 80 }).withIccProfile("srgb");
    case "gif":
      return pipeline.gif();
  }
}

/**
 * The decoder gave up: the pixel limit (a bomb that slipped past the header), bytes
 * that are not that image after all, or the time limit (an outage, not the file's fault).
 */
function decodeFailure(error: unknown): unknown {
  const message = error instanceof Error ? error.message : "";
  if (message.includes("pixel limit")) return new Invalid({ file: TOO_MANY_PIXELS_MESSAGE });
  if (message.includes("timeout")) return error;
  return invalidFileType();
}
