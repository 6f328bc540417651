import type { z } from "zod";
import { type FormIntent, formIntent } from "~/lib/form-action.server";
import { itemIntents } from "~/lib/item-intents.server";
import { updateAboutContent } from "../../../server/content/about.ts";
import {
  createCertification,
  createSkill,
  createTimelineEvent,
  deleteCertification,
  deleteSkill,
  deleteTimelineEvent,
  moveCertificationUp,
  moveSkillUp,
  moveTimelineEventUp,
  reorderCertifications,
  reorderSkills,
  reorderTimelineEvents,
  updateCertification,
  updateSkill,
  updateTimelineEvent,
} from "../../../server/content/profile.ts";
import type { ContentStore } from "../../../server/content/store.ts";
import { Invalid } from "../../../server/errors.ts";
import {
  aboutContentFormSchema,
  CERTIFICATION_FORMS,
  deleteItemSchema,
  type ListIntents,
  moveItemUpSchema,
  reorderListSchema,
  SAVE_ABOUT_CONTENT_INTENT,
  SKILL_FORMS,
  TIMELINE_EVENT_FORMS,
} from "./schemas";

/** The intents of /admin/about's action: the Biography & Content form and the three lists. */

const ORDER_UPDATED = "Order updated successfully!";

/** One list's five intents, with the spec's toasts ("Certification added successfully!", …). */
function listIntents<NewItem, EditedItem extends { id: string }>(
  { intents, add, edit }: { intents: ListIntents; add: z.ZodType<NewItem>; edit: z.ZodType<EditedItem> },
  thing: string,
  service: {
    create(value: NewItem): Promise<unknown>;
    update(id: string, changes: Omit<EditedItem, "id">): Promise<unknown>;
    remove(id: string): Promise<void>;
    moveUp(id: string, listRevision: number): Promise<boolean>;
    reorder(orderedIds: string[], listRevision: number): Promise<unknown>;
  },
): Record<string, FormIntent> {
  return {
    ...itemIntents({ thing, intents, schemas: { create: add, update: edit, delete: deleteItemSchema }, ...service }),
    [intents.moveUp]: formIntent({
      schema: moveItemUpSchema,
      failure: "Failed to update order",
      async run({ id, listRevision }) {
        // The page offers no move up for the first item; only a hand-made request gets here.
        if (!(await service.moveUp(id, listRevision))) {
          throw new Invalid({}, `The first ${thing} cannot move up.`);
        }
        return ORDER_UPDATED;
      },
    }),
    [intents.reorder]: formIntent({
      schema: reorderListSchema,
      failure: "Failed to update order",
      async run({ orderedIds, listRevision }) {
        await service.reorder(orderedIds, listRevision);
        return ORDER_UPDATED;
      },
    }),
  };
}

export function aboutIntents(store: ContentStore): Record<string, FormIntent> {
  return {
    [SAVE_ABOUT_CONTENT_INTENT]: formIntent({
      schema: aboutContentFormSchema,
      failure: "Failed to update content",
      // The form keeps its values; the page's new revisions come with the reloaded data.
      resetOnSuccess: false,
      async run(entries) {
        await updateAboutContent(store, entries);
        return "Content updated successfully!";
      },
    }),
    ...listIntents(CERTIFICATION_FORMS, "certification", {
      create: (value) => createCertification(store, value),
      update: (id, changes) => updateCertification(store, id, changes),
      remove: (id) => deleteCertification(store, id),
      moveUp: (id, revision) => moveCertificationUp(store, id, revision),
      reorder: (ids, revision) => reorderCertifications(store, ids, revision),
    }),
    ...listIntents(SKILL_FORMS, "skill", {
      create: (value) => createSkill(store, value),
      update: (id, changes) => updateSkill(store, id, changes),
      remove: (id) => deleteSkill(store, id),
      moveUp: (id, revision) => moveSkillUp(store, id, revision),
      reorder: (ids, revision) => reorderSkills(store, ids, revision),
    }),
    ...listIntents(TIMELINE_EVENT_FORMS, "timeline event", {
      create: (value) => createTimelineEvent(store, value),
      update: (id, changes) => updateTimelineEvent(store, id, changes),
      remove: (id) => deleteTimelineEvent(store, id),
      moveUp: (id, revision) => moveTimelineEventUp(store, id, revision),
      reorder: (ids, revision) => reorderTimelineEvents(store, ids, revision),
    }),
  };
}
