import exifr from "exifr";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { Invalid, TooLarge } from "../../server/errors.ts";
import { processImage } from "../../server/media/process-image.ts";
import {
  FILE_TOO_LARGE_MESSAGE,
  INVALID_FILE_TYPE_MESSAGE,
  MAX_IMAGE_BYTES,
  TOO_MANY_PIXELS_MESSAGE,
} from "../../server/media/rules.ts";
import { animatedGif, bombPng, HTML, jpegWithExif, png, polyglots, SVG, TEXT, webp } from "./images.ts";

/** Everything an EXIF reader finds in the file: EXIF, GPS, XMP, IPTC (the sRGB colour profile is looked at apart). */
async function metadataOf(bytes: Buffer): Promise<Record<string, unknown>> {
  const found = await exifr.parse(bytes, {
    tiff: true,
    ifd0: {},
    exif: true,
    gps: true,
    interop: true,
    ifd1: true,
    xmp: true,
    iptc: true,
    icc: false,
    jfif: false,
    ihdr: false,
    mergeOutput: true,
  });
  return found ?? {};
}

async function refusal(bytes: Buffer): Promise<unknown> {
  return processImage(bytes).then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe("processing an image", () => {
  it("a JPEG carrying GPS and camera EXIF comes out without any of it, turned upright", async () => {
    const photo = await jpegWithExif(1200, 800);
    const before = await metadataOf(photo);
    // The fixture really carries what must go.
    expect(before).toMatchObject({ Make: "Canon", Model: "EOS R5", Artist: "Jane Analyst" });
    expect(before.latitude).toBeCloseTo(48.858, 2);
    expect(before.SerialNumber).toBe("042021001234");

    const { original, variants } = await processImage(photo);
    // exifr reads JPEG and PNG (not WebP); sharp reads them all.
    for (const file of [original, ...variants.filter((variant) => variant.type.format === "jpeg")]) {
      expect(await metadataOf(file.data)).toEqual({});
      expect(await exifr.gps(file.data)).toBeUndefined();
    }
    for (const file of [original, ...variants]) {
      const stored = await sharp(file.data).metadata();
      expect(stored.exif).toBeUndefined();
      expect(stored.xmp).toBeUndefined();
      expect(stored.iptc).toBeUndefined();
      expect(stored.comments ?? []).toEqual([]);
      // Orientation 6 was applied to the pixels: the 1200 × 800 photo stands 800 × 1200.
      expect(stored.orientation ?? 1).toBe(1);
      expect(stored.width).toBeLessThan(stored.height);
    }
    expect(original).toMatchObject({ width: 800, height: 1200 });
    expect(original.type.mime).toBe("image/jpeg");
  });

  it("keeps colours tagged as sRGB", async () => {
    const { original, variants } = await processImage(await jpegWithExif());
    for (const file of [original, ...variants]) {
      const stored = await sharp(file.data).metadata();
      expect([stored.space, stored.hasProfile]).toEqual(["srgb", true]);
    }
    const icc = await exifr.parse(original.data, { icc: true, tiff: false, exif: false, gps: false });
    expect(icc?.ProfileDescription).toBe("sRGB");
  });

  it("makes variants of 480, 960 and 1600 px in WebP and the original format, never wider than the image", async () => {
    const large = await processImage(await png(2000, 1000));
    expect(large.variants.map((variant) => [variant.type.format, variant.width, variant.height])).toEqual([
      ["webp", 480, 240],
      ["webp", 960, 480],
      ["webp", 1600, 800],
      ["png", 480, 240],
      ["png", 960, 480],
      ["png", 1600, 800],
    ]);
    for (const variant of large.variants) {
      const stored = await sharp(variant.data).metadata();
      expect([stored.format, stored.width, stored.height]).toEqual([
        variant.type.format,
        variant.width,
        variant.height,
      ]);
    }

    const middling = await processImage(await png(1000, 500));
    expect(middling.variants.map((variant) => variant.width)).toEqual([480, 960, 480, 960]);
    expect((await processImage(await png(400, 300))).variants).toEqual([]);
    // A WebP's variants are WebP only.
    expect((await processImage(await webp(1000, 500))).variants.map((variant) => variant.type.format)).toEqual([
      "webp",
      "webp",
    ]);
  });

  it("an animated GIF stays animated, and so do its variants", async () => {
    const { original, variants } = await processImage(await animatedGif(1000, 500, 3));
    expect(original).toMatchObject({ width: 1000, height: 500 });
    const stored = await sharp(original.data, { animated: true }).metadata();
    expect([stored.format, stored.pages, stored.pageHeight]).toEqual(["gif", 3, 500]);
    expect(stored.delay).toEqual([120, 120, 120]);
    for (const variant of variants) {
      const frames = await sharp(variant.data, { animated: true }).metadata();
      expect(frames.pages, `${variant.type.format} ${variant.width}`).toBe(3);
      expect(frames.pageHeight).toBe(variant.height);
    }
    expect(variants.map((variant) => [variant.type.format, variant.width])).toEqual([
      ["webp", 480],
      ["webp", 960],
      ["gif", 480],
      ["gif", 960],
    ]);
  });

  it("decides the type from the bytes: a PNG is a PNG whatever it was called", async () => {
    const { original } = await processImage(await png());
    expect(original.type).toMatchObject({ mime: "image/png", extension: "png" });
  });

  it.each([
    ["a text file", TEXT],
    ["an SVG", SVG],
    ["an HTML page", HTML],
    ["an empty file", Buffer.alloc(0)],
  ])("refuses %s with the spec's text", async (_name, bytes) => {
    const error = await refusal(bytes);
    expect(error).toBeInstanceOf(Invalid);
    expect((error as Invalid).message).toBe(INVALID_FILE_TYPE_MESSAGE);
  });

  it("refuses polyglots: files that are an image and something else", async () => {
    for (const [name, bytes] of Object.entries(await polyglots())) {
      const error = await refusal(bytes);
      expect((error as Error | undefined)?.message, name).toBe(INVALID_FILE_TYPE_MESSAGE);
    }
  });

  it("refuses an image cut short, whatever part of it is missing", async () => {
    const jpeg = await sharp(await png(300, 200))
      .jpeg()
      .toBuffer();
    const image = await png(300, 200);
    for (const [name, bytes] of [
      ["a JPEG cut at half", jpeg.subarray(0, jpeg.length / 2)],
      ["a JPEG without its last tenth", jpeg.subarray(0, Math.floor(jpeg.length * 0.9))],
      ["a PNG cut short", image.subarray(0, Math.floor(image.length * 0.6))],
    ] as const) {
      expect(((await refusal(bytes)) as Error | undefined)?.message, name).toBe(INVALID_FILE_TYPE_MESSAGE);
    }
  });

  it("accepts a JPEG with further images after its end (a multi-picture file)", async () => {
    const first = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#123" } })
      .jpeg()
      .toBuffer();
    const second = await sharp({ create: { width: 16, height: 16, channels: 3, background: "#456" } })
      .jpeg()
      .toBuffer();
    const { original } = await processImage(Buffer.concat([first, second]));
    expect(original).toMatchObject({ width: 64, height: 64 });
  });

  it("refuses a decompression bomb from its header, at once", async () => {
    const bomb = bombPng(30_000, 30_000);
    expect(bomb.length).toBeLessThan(150_000);
    const started = performance.now();
    const error = await refusal(bomb);
    expect((error as Error).message).toBe(TOO_MANY_PIXELS_MESSAGE);
    // Decoding 900 megapixels would take many seconds and gigabytes.
    expect(performance.now() - started).toBeLessThan(1000);
    // Under sharp's own default limit too: ours is the one that refuses.
    expect(((await refusal(bombPng(10_000, 10_000))) as Error).message).toBe(TOO_MANY_PIXELS_MESSAGE);
  });

  it("refuses more than 5 MB with the spec's text, and takes exactly 5 MB", async () => {
    const small = await png(64, 64);
    // Bytes after a JPEG's end are allowed (camera trailers), which makes an exact size easy.
    const jpeg = await sharp(small).jpeg().toBuffer();
    const padded = (size: number) => Buffer.concat([jpeg, Buffer.alloc(size - jpeg.length)]);
    const error = await refusal(padded(MAX_IMAGE_BYTES + 1));
    expect(error).toBeInstanceOf(TooLarge);
    expect((error as TooLarge).message).toBe(FILE_TOO_LARGE_MESSAGE);
    expect((await processImage(padded(MAX_IMAGE_BYTES))).original.type.format).toBe("jpeg");
  });
});
