import { z } from "zod";
import { itemIdField, revisionField } from "../../../server/content/fields.ts";
import { newTipSchema } from "../../../server/content/tip-input.ts";
import { TIP_CATEGORIES, TIP_TYPES } from "../../../server/db/schema.ts";

/** The forms of /admin/tips, read by the browser and again by the action; the field rules are the service's. */

/** The intents of the screen's forms, posted by the dialogs and the delete buttons. */
export const TIP_INTENTS = { create: "create-tip", update: "update-tip", delete: "delete-tip" } as const;

const id = itemIdField;

export const addTipSchema = newTipSchema;
/** Every field is sent, so an emptied description or URL is saved empty, with the revision the dialog opened at. */
export const editTipSchema = newTipSchema.extend({ id, revision: revisionField });
export const deleteTipSchema = z.object({ id });

export type TipCategory = (typeof TIP_CATEGORIES)[number];

export const TIP_TYPE_LABELS: Record<(typeof TIP_TYPES)[number], string> = {
  external: "External Link",
  "coming-soon": "Coming Soon",
};

export const TIP_CATEGORY_OPTIONS = TIP_CATEGORIES.map((category) => ({ value: category, label: category }));
export const TIP_TYPE_OPTIONS = TIP_TYPES.map((type) => ({ value: type, label: TIP_TYPE_LABELS[type] }));
export const TIP_CATEGORY_FILTERS = [{ value: "", label: "All Categories" }, ...TIP_CATEGORY_OPTIONS];
