import { z } from "zod";
import { itemIdField, revisionField } from "../../../server/content/fields.ts";
import { newResourceSchema } from "../../../server/content/resource-input.ts";
import { RESOURCE_CATEGORIES } from "../../../server/db/schema.ts";

/** The forms of /admin/resources, read by the browser and again by the action; the field rules are the service's. */

/** The intents of the screen's forms, posted by the dialogs and the delete buttons. */
export const RESOURCE_INTENTS = {
  create: "create-resource",
  update: "update-resource",
  delete: "delete-resource",
} as const;

const id = itemIdField;

export const addResourceSchema = newResourceSchema;
/** Every field is sent (a switched-off Featured sends nothing and means false), with the revision the dialog opened at. */
export const editResourceSchema = newResourceSchema.extend({ id, revision: revisionField });
export const deleteResourceSchema = z.object({ id });

export type ResourceCategory = (typeof RESOURCE_CATEGORIES)[number];

export const RESOURCE_CATEGORY_OPTIONS = RESOURCE_CATEGORIES.map((category) => ({ value: category, label: category }));
export const RESOURCE_CATEGORY_FILTERS = [{ value: "", label: "All" }, ...RESOURCE_CATEGORY_OPTIONS];
