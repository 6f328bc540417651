import type { z } from "zod";
import { type FormIntent, formIntent } from "./form-action.server";

/**
 * The create, update and delete intents of one kind of item (a tip, a chapter, a
 * skill…), with the spec's toasts: "Skill added successfully!", "Skill updated
 * successfully!", "Skill deleted successfully!", and "Failed to add skill: {message}"
 * (update, delete) when refused. Chapters are "created" rather than "added".
 */
export function itemIntents<NewItem, EditedItem extends { id: string }>(item: {
  /** What the toasts call one item, in lower case: "timeline event". */
  thing: string;
  /** The verb of the create toasts (default: add). */
  creating?: "add" | "create";
  intents: { create: string; update: string; delete: string };
  schemas: { create: z.ZodType<NewItem>; update: z.ZodType<EditedItem>; delete: z.ZodType<{ id: string }> };
  create(value: NewItem): Promise<unknown>;
  update(id: string, changes: Omit<EditedItem, "id">): Promise<unknown>;
  remove(id: string): Promise<unknown>;
}): Record<string, FormIntent> {
  const { thing, intents, schemas } = item;
  const title = thing.charAt(0).toUpperCase() + thing.slice(1);
  const creating = item.creating ?? "add";
  return {
    [intents.create]: formIntent({
      schema: schemas.create,
      failure: `Failed to ${creating} ${thing}`,
      async run(value) {
        await item.create(value);
        return `${title} ${creating === "add" ? "added" : "created"} successfully!`;
      },
    }),
    [intents.update]: formIntent({
      schema: schemas.update,
      failure: `Failed to update ${thing}`,
      async run({ id, ...changes }) {
        await item.update(id, changes);
        return `${title} updated successfully!`;
      },
    }),
    [intents.delete]: formIntent({
      schema: schemas.delete,
      failure: `Failed to delete ${thing}`,
      async run({ id }) {
        await item.remove(id);
        return `${title} deleted successfully!`;
      },
    }),
  };
}
