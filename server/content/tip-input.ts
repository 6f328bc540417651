import { z } from "zod";
import { TIP_CATEGORIES, TIP_TYPES } from "../db/schema.ts";
import { lenientOrderIndex, optionalHttpUrl, revisionField } from "./fields.ts";

/**
 * What may be written to a tip (the tips_resources table): the service (tips.ts) parses
 * its input with these schemas, and the admin's form checks the same rules in the
 * browser, so this module holds nothing but zod and the schema's constants.
 */

const fields = {
  category: z.enum(TIP_CATEGORIES, { error: "Choose a category" }),
  title: z.string({ error: "Title is required" }).trim().min(1, "Title is required").max(200, "Title is too long"),
  description: z.string().trim().max(2000, "Description is too long"),
  // Saved as null when empty, as the spec asks; http(s) only: the card opens it in a new tab.
  url: optionalHttpUrl.nullish().transform((value) => (value ? value : null)),
  type: z.enum(TIP_TYPES, { error: "Choose a type" }),
};

export const newTipSchema = z.object({
  ...fields,
  category: fields.category.default("Tenable"),
  description: fields.description.default(""),
  type: fields.type.default("external"),
  orderIndex: lenientOrderIndex.default(0),
});

export const tipChangesSchema = z.object({
  revision: revisionField,
  category: fields.category.optional(),
  title: fields.title.optional(),
  description: fields.description.optional(),
  url: fields.url.optional(),
  type: fields.type.optional(),
  orderIndex: lenientOrderIndex.optional(),
});

/** orderIndex: a whole number from 0; anything else becomes 0. */
export type NewTip = Omit<z.input<typeof newTipSchema>, "orderIndex"> & { orderIndex?: number | string | null };
export type TipChanges = Omit<z.input<typeof tipChangesSchema>, "orderIndex"> & {
  orderIndex?: number | string | null;
};

/** The category filter of the admin's list (`?category=`): anything but a category means all of them. */
export const tipCategoryFilter = z.enum(TIP_CATEGORIES).nullable().catch(null);
