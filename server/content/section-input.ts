import { z } from "zod";
import { SECTION_TYPES } from "../db/schema.ts";
import { isSafeLink, revisionField } from "./fields.ts";

/**
 * What may be written to a chapter section: the service (sections.ts) parses its input
 * with these schemas, and the admin's section editor checks the same rules in the
 * browser (and its live preview on the server), so this module holds nothing but zod
 * and the schema's constants.
 */

export type SectionType = (typeof SECTION_TYPES)[number];

export const SELECT_CHAPTER_MESSAGE = "Please select a chapter first";
export const CONTENT_REQUIRED_MESSAGE = "Section content is required";
export const IMAGE_URL_MESSAGE = "Enter an image URL starting with http://, https:// or /";

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `At most ${max} characters`)
    .nullish()
    .transform((value) => (value ? value : null));

/** A section's own fields, each on its own; which of them a type keeps is the service's rule. */
export const sectionFields = {
  type: z.enum(SECTION_TYPES, { error: "Choose a section type" }),
  content: z
    .string({ error: CONTENT_REQUIRED_MESSAGE })
    .max(200_000, "Section content is too long")
    .refine((value) => value.trim() !== "", CONTENT_REQUIRED_MESSAGE),
  caption: optionalText(500),
  language: optionalText(50),
  alt: optionalText(500),
};

/** An image section's content is its URL: a path on this site or an http(s) URL, never another scheme. */
export function isImageUrl(content: string): boolean {
  return isSafeLink(content.trim());
}

/**
 * Why an image URL will not be shown, or null when it will: the pages' CSP lets
 * images come from this site (a path), the origins given (the site's own, the media
 * storage's, IMAGE_ORIGINS) and nowhere else. Undefined origins check nothing (the
 * system's own writes: seeding, tests).
 */
export function imageOriginRefusal(content: string, origins: readonly string[] | undefined): string | null {
  const url = content.trim();
  if (origins === undefined || (url.startsWith("/") && !url.startsWith("//")) || !URL.canParse(url)) return null;
  const { origin } = new URL(url);
  if (origins.includes(origin)) return null;
  return `Images from ${origin} are not shown on this site: import the image into the media library, or ask an admin to add ${origin} to IMAGE_ORIGINS.`;
}

/**
 * For a form that sends every field at once: an image section's content must be an
 * image URL (the service checks the same on the merged record, since a change may
 * name the type or the content alone).
 */
export function withImageUrlCheck<Schema extends z.ZodType<{ type: SectionType; content: string }>>(schema: Schema) {
  return schema.superRefine((section, context) => {
    if (section.type === "image" && section.content.trim() !== "" && !isImageUrl(section.content)) {
      context.addIssue({ code: "custom", path: ["content"], message: IMAGE_URL_MESSAGE });
    }
  });
}

export const newSectionSchema = z.object({
  chapterId: z.string({ error: SELECT_CHAPTER_MESSAGE }).trim().min(1, SELECT_CHAPTER_MESSAGE),
  ...sectionFields,
});

export const sectionChangesSchema = z.object({
  revision: revisionField,
  type: sectionFields.type.optional(),
  content: sectionFields.content.optional(),
  caption: sectionFields.caption.optional(),
  language: sectionFields.language.optional(),
  alt: sectionFields.alt.optional(),
});

export type NewSection = z.input<typeof newSectionSchema>;
export type SectionChanges = z.input<typeof sectionChangesSchema>;
