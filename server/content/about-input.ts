import { z } from "zod";
import { revisionField } from "./fields.ts";

/**
 * What may be written to the About page's texts (the site_content table): the service
 * (about.ts) parses its input with these schemas, and the Biography & Content form
 * checks the same rules in the browser, so this module holds nothing but zod.
 */

export const ABOUT_CONTENT_KEYS = [
  "about_name",
  "about_title",
  "about_bio_1",
  "about_bio_2",
  "about_bio_3",
  "about_mission",
] as const;
export type AboutContentKey = (typeof ABOUT_CONTENT_KEYS)[number];

const text = z.string().trim().max(5000, "At most 5000 characters");
// The name is the About page's main heading, which must not be empty; the other texts may be.
const name = z.string({ error: "Name is required" }).trim().min(1, "Name is required").max(200, "Name is too long");

const entry = <Value extends z.ZodType<string>>(value: Value) => z.object({ revision: revisionField, value });
const optionalText = text.default("");

/** Each entry as the editor saves it: its text (empty when left blank) and the revision it was opened at. */
export const aboutContentEntries = {
  about_name: entry(name),
  about_title: entry(optionalText),
  about_bio_1: entry(optionalText),
  about_bio_2: entry(optionalText),
  about_bio_3: entry(optionalText),
  about_mission: entry(optionalText),
} satisfies Record<AboutContentKey, z.ZodType>;

/** Any of the entries; nothing else. */
export const aboutContentChangesSchema = z.strictObject(
  Object.fromEntries(ABOUT_CONTENT_KEYS.map((key) => [key, aboutContentEntries[key].optional()])) as {
    [Key in AboutContentKey]: z.ZodOptional<(typeof aboutContentEntries)[Key]>;
  },
);

/** The entries to save, each with the revision the editor saw. */
export type AboutContentChanges = z.input<typeof aboutContentChangesSchema>;
