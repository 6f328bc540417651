import { z } from "zod";
import { optionalLink, revisionField } from "./fields.ts";

/**
 * What may be written to the home page (the home_page_content table): the service
 * (home.ts) parses its input with these schemas, and the Home Page Editor checks the
 * same rules in the browser, so this module holds nothing but zod.
 */

export const HOME_CONTENT_KEYS = [
  "hero_headline",
  "hero_tagline",
  "hero_description",
  "button_primary_text",
  "button_secondary_text",
  "newsletter_section_visible",
] as const;
export type HomeContentKey = (typeof HOME_CONTENT_KEYS)[number];

const text = z.string().trim().max(5000, "At most 5000 characters").default("");
const buttonText = z
  .string({ error: "Button text is required" })
  .trim()
  .min(1, "Button text is required")
  .max(60, "Button text is too long (60 characters at most)");

const entry = <Value extends z.ZodType<string>>(value: Value) => z.object({ revision: revisionField, value });
// A button's link: a path of this site or an http(s) URL; empty brings back its default (/projects, /blog).
const buttonEntry = entry(buttonText).extend({ link: optionalLink.default("") });

/** Each entry as the editor saves it, with the revision it was opened at. */
export const homeContentEntries = {
  hero_headline: entry(text),
  hero_tagline: entry(text),
  hero_description: entry(text),
  button_primary_text: buttonEntry,
  button_secondary_text: buttonEntry,
  newsletter_section_visible: entry(
    z.enum(["true", "false"], { error: "Choose whether the newsletter section is shown" }),
  ),
} satisfies Record<HomeContentKey, z.ZodType>;

/** Any of the entries; nothing else. */
export const homeContentChangesSchema = z.strictObject(
  Object.fromEntries(HOME_CONTENT_KEYS.map((key) => [key, homeContentEntries[key].optional()])) as {
    [Key in HomeContentKey]: z.ZodOptional<(typeof homeContentEntries)[Key]>;
  },
);

/** The entries to save, each with the revision the editor saw; a button's link "" brings back its default. */
export type HomeContentChanges = z.input<typeof homeContentChangesSchema>;
