import { z } from "zod";
import { optionalWholeNumber, revisionField } from "./fields.ts";

/**
 * What may be written to a chapter: the service (chapters.ts) parses its input with
 * these schemas, and the admin's chapter form checks the same rules in the browser, so
 * this module holds nothing but zod and the fields shared by the content editors.
 */

const title = z
  .string({ error: "Chapter title is required" })
  .trim()
  .min(1, "Chapter title is required")
  .max(200, "Chapter title is too long (200 characters at most)");
const number = optionalWholeNumber("Chapter number must be a whole number");
// Unlike tips and resources, an invalid chapter order is refused, not turned into 0.
const orderIndex = optionalWholeNumber("Order must be a whole number");

export const newChapterSchema = z.object({ title, number, orderIndex, published: z.boolean().default(true) });

export const chapterChangesSchema = z.object({
  revision: revisionField,
  title: title.optional(),
  published: z.boolean().optional(),
  number,
  orderIndex,
});

export interface NewChapter {
  title: string;
  /** Blank or omitted: the highest number + 1. */
  number?: number | string | null;
  /** Blank or omitted: the highest order_index + 1. */
  orderIndex?: number | string | null;
  published?: boolean;
}

export interface ChapterChanges {
  /** The revision the editor's form was opened at. */
  revision: number;
  title?: string;
  published?: boolean;
  number?: number | string | null;
  orderIndex?: number | string | null;
}
