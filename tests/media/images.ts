import { deflateSync } from "node:zlib";
import sharp from "sharp";

/**
 * Test images made on the fly with sharp (no binaries in the repository): photos with
 * camera metadata, animations, decompression bombs, and files that only pretend.
 */

/** A JPEG as a phone writes it: camera make, model, serial, author, GPS position, and an orientation to apply. */
export async function jpegWithExif(width = 1200, height = 800): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: "#3a6ea5" } })
    .jpeg({ quality: 90 })
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: {
        Make: "Canon",
        Model: "EOS R5",
        Artist: "Jane Analyst",
        Copyright: "Jane Analyst",
        ImageDescription: "Office, third floor",
      },
      IFD2: { BodySerialNumber: "042021001234", LensModel: "RF24-105mm F4 L IS USM" },
      IFD3: {
        GPSLatitudeRef: "N",
        GPSLatitude: "48/1 51/1 2964/100",
        GPSLongitudeRef: "E",
        GPSLongitude: "2/1 21/1 1056/100",
      },
    })
    .toBuffer();
}

export async function png(width = 640, height = 480): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 20, g: 160, b: 90, alpha: 0.8 } } })
    .png()
    .toBuffer();
}

export async function webp(width = 640, height = 480): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: "#884422" } })
    .webp()
    .toBuffer();
}

/** An animated GIF of `frames` frames of different colours. */
export async function animatedGif(width = 1000, height = 500, frames = 3): Promise<Buffer> {
  const colours = ["#d62828", "#2a9d8f", "#264653", "#e9c46a"];
  const pages = await Promise.all(
    Array.from({ length: frames }, (_, index) =>
      sharp({ create: { width, height, channels: 3, background: colours[index % colours.length] as string } })
        .png()
        .toBuffer(),
    ),
  );
  return sharp(pages, { join: { animated: true } })
    .gif({ delay: Array(frames).fill(120), loop: 0 })
    .toBuffer();
}

/**
 * A real decompression bomb: a 1-bit greyscale PNG of width × height, all zeros, which
 * deflates to ~100 KB for 30000 × 30000 (900 megapixels, gigabytes once decoded).
 */
export function bombPng(width = 30_000, height = 30_000): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const rowBytes = 1 + Math.ceil(width / 8);
  const pixels = deflateSync(Buffer.alloc(rowBytes * height), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", pixels),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.domain)</script><rect width="10" height="10"/></svg>',
);
export const HTML = Buffer.from("<!doctype html><html><body><script>alert(1)</script></body></html>");
export const TEXT = Buffer.from("Just some notes, saved with a .png name.\n");

/** Files that begin as an image and carry something else. */
export async function polyglots(): Promise<Record<string, Buffer>> {
  const jpeg = await sharp({ create: { width: 32, height: 32, channels: 3, background: "#777" } })
    .jpeg()
    .toBuffer();
  const image = await png(32, 32);
  const zip = Buffer.concat([Buffer.from("PK\u0003\u0004"), Buffer.alloc(40, 1)]);
  return {
    "a GIF header in front of a script": Buffer.from("GIF89a/*\u0000\u0000*/=1;alert(document.cookie)//;"),
    "a PNG followed by HTML": Buffer.concat([image, Buffer.from("<html><script>alert(1)</script></html>")]),
    "a PNG followed by junk": Buffer.concat([image, Buffer.alloc(64, 7)]),
    "a JPEG followed by a ZIP archive": Buffer.concat([jpeg, zip]),
    "a JPEG with a script in its comment": await sharp(jpeg)
      .jpeg()
      .withExif({ IFD0: { ImageDescription: "<script>alert(1)</script>" } })
      .toBuffer(),
    "a PNG signature in front of HTML": Buffer.concat([image.subarray(0, 16), HTML]),
  };
}
