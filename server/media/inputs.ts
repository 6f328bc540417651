import { z } from "zod";
import { MAX_INTEGER_COLUMN } from "../validation.ts";
import { MAX_ALT_LENGTH } from "./rules.ts";

/** What the media services accept, checked on the server whatever the client checked. */

const alt = z
  .string()
  .trim()
  .max(MAX_ALT_LENGTH, `Alt text must be at most ${MAX_ALT_LENGTH} characters.`)
  .nullish()
  .transform((value) => value || null);

// A form leaves an empty field out: the same message for a missing one as for a blank one.
const id = z.string({ error: "Choose an image." }).trim().min(1, "Choose an image.").max(100);

const IMAGE_URL_REQUIRED = "Please enter an image URL.";
const imageUrl = z
  .string({ error: IMAGE_URL_REQUIRED })
  .trim()
  .min(1, IMAGE_URL_REQUIRED)
  .max(2048, "The URL is too long.");

const confirmed = z.boolean().default(false);

export const uploadInput = z.object({
  originalName: z
    .string()
    .nullish()
    .transform((value) => value?.trim().slice(0, 255) || null),
  alt,
});

export const importInput = z.object({ url: imageUrl, alt });

export const altChangeInput = z.object({ id, alt, revision: z.int().min(1).max(MAX_INTEGER_COLUMN) });

/**
 * The sections a confirmation named (comma-separated ids): a confirmed delete is refused
 * again when the image is now shown in a section it did not name. Without it, `confirmed`
 * covers whatever uses the image (the API's DELETE).
 */
const confirmedSections = z.string().max(20_000).optional();

export const removeInput = z.object({ id, confirmed, confirmedSections });

export const removeByUrlInput = z.object({ url: imageUrl, confirmed });
