import { randomInt } from "node:crypto";
import type { ImageType } from "./image-type.ts";

/**
 * Stored file names: a timestamp, a random string and the extension of the detected
 * type (`1732170000000-k3j9x0q2ab.jpg`), variants with their width
 * (`1732170000000-k3j9x0q2ab-480w.webp`). Nothing of the uploaded name is kept in
 * them, and anything not of this shape is never read, written or served.
 */

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
const RANDOM_LENGTH = 10;
const NAME_PATTERN = /^\d{13}-[a-z0-9]{10}(-\d{1,5}w)?\.(jpg|png|webp|gif)$/;

/** A new name for an original image: its stem is shared by its variants. */
export function newImageName(type: ImageType): { name: string; stem: string } {
  let random = "";
  for (let index = 0; index < RANDOM_LENGTH; index++) random += ALPHABET[randomInt(ALPHABET.length)];
  const stem = `${Date.now()}-${random}`;
  return { name: `${stem}.${type.extension}`, stem };
}

export function variantName(stem: string, width: number, type: ImageType): string {
  return `${stem}-${width}w.${type.extension}`;
}

export function isImageName(name: string): boolean {
  return NAME_PATTERN.test(name);
}

/** The part shared by an image and its variants (`1732170000000-k3j9x0q2ab`). */
export function stemOf(name: string): string {
  return name.slice(0, 24);
}
