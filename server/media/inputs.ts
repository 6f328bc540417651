import { z } from "zod";
import { MAX_ALT_LENGTH } from "./rules.ts";

/** What the media services accept, checked on the server whatever the client checked. */

const alt = z
  .string()
  .trim()
  .max(MAX_ALT_LENGTH, `Alt text must be at most ${MAX_ALT_LENGTH} characters.`)
  .nullish()
  .transform((value) => value || null);

const id = z.string().trim().min(1, "Choose an image.").max(100);

const imageUrl = z.string().trim().min(1, "Please enter an image URL.").max(2048, "The URL is too long.");

const confirmed = z.boolean().default(false);

export const uploadInput = z.object({
  originalName: z
    .string()
    .nullish()
    .transform((value) => value?.trim().slice(0, 255) || null),
  alt,
});

export const importInput = z.object({ url: imageUrl, alt });

export const altChangeInput = z.object({ id, alt, revision: z.int().min(1) });

export const removeInput = z.object({ id, confirmed });

export const removeByUrlInput = z.object({ url: imageUrl, confirmed });
