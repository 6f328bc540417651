import { z } from "zod";
import { RESOURCE_CATEGORIES } from "../db/schema.ts";
import { lenientOrderIndex, requiredLink, revisionField } from "./fields.ts";

/**
 * What may be written to a library resource: the service (resources.ts) parses its
 * input with these schemas, and the admin's form checks the same rules in the browser,
 * so this module holds nothing but zod and the schema's constants.
 */

const fields = {
  name: z.string({ error: "Name is required" }).trim().min(1, "Name is required").max(200, "Name is too long"),
  description: z.string().trim().max(2000, "Description is too long"),
  url: requiredLink,
  category: z.enum(RESOURCE_CATEGORIES, { error: "Choose a category" }),
  featured: z.boolean(),
};

export const newResourceSchema = z.object({
  name: fields.name,
  description: fields.description.default(""),
  url: fields.url,
  category: fields.category.default("Learning"),
  featured: fields.featured.default(false),
});

export const resourceChangesSchema = z.object({
  revision: revisionField,
  name: fields.name.optional(),
  description: fields.description.optional(),
  url: fields.url.optional(),
  category: fields.category.optional(),
  featured: fields.featured.optional(),
  orderIndex: lenientOrderIndex.optional(),
});

export type NewResource = z.input<typeof newResourceSchema>;
/** orderIndex: a whole number from 0; anything else becomes 0. */
export type ResourceChanges = Omit<z.input<typeof resourceChangesSchema>, "orderIndex"> & {
  orderIndex?: number | string | null;
};

/** The category filter of the admin's cards (`?category=`): anything but a category means all of them. */
export const resourceCategoryFilter = z.enum(RESOURCE_CATEGORIES).nullable().catch(null);
