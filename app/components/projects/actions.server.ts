import { formIntent } from "~/lib/form-action.server";
import { itemIntents } from "~/lib/item-intents.server";
import { createChapter, deleteChapter, updateChapter } from "../../../server/content/chapters.ts";
import {
  createSection,
  deleteSection,
  moveSection,
  reorderSections,
  updateSection,
} from "../../../server/content/sections.ts";
import type { ContentStore } from "../../../server/content/store.ts";
import { Invalid } from "../../../server/errors.ts";
import {
  addSectionSchema,
  createChapterSchema,
  deleteChapterSchema,
  deleteSectionSchema,
  editChapterSchema,
  editSectionSchema,
  moveSectionSchema,
  PROJECTS_INTENTS,
  reorderSectionsSchema,
} from "./schemas";

/** The writes of /admin/projects, each one service call with the spec's toasts. */
export function projectsIntents(store: ContentStore) {
  return {
    ...itemIntents({
      thing: "chapter",
      creating: "create",
      intents: {
        create: PROJECTS_INTENTS.createChapter,
        update: PROJECTS_INTENTS.updateChapter,
        delete: PROJECTS_INTENTS.deleteChapter,
      },
      schemas: { create: createChapterSchema, update: editChapterSchema, delete: deleteChapterSchema },
      create: (chapter) => createChapter(store, chapter),
      update: (id, changes) => updateChapter(store, id, changes),
      remove: (id) => deleteChapter(store, id),
    }),
    ...itemIntents({
      thing: "section",
      intents: {
        create: PROJECTS_INTENTS.addSection,
        update: PROJECTS_INTENTS.updateSection,
        delete: PROJECTS_INTENTS.deleteSection,
      },
      schemas: { create: addSectionSchema, update: editSectionSchema, delete: deleteSectionSchema },
      create: (section) => createSection(store, section),
      update: (id, changes) => updateSection(store, id, changes),
      remove: (id) => deleteSection(store, id),
    }),
    [PROJECTS_INTENTS.moveSection]: formIntent({
      schema: moveSectionSchema,
      failure: "Failed to update order",
      async run({ id, direction, listRevision }) {
        // The buttons that would do nothing are disabled; a crafted request is told so.
        if (!(await moveSection(store, id, direction, listRevision))) {
          throw new Invalid({ direction: `This section cannot move further ${direction}.` });
        }
        return "Order updated successfully!";
      },
    }),
    [PROJECTS_INTENTS.reorderSections]: formIntent({
      schema: reorderSectionsSchema,
      failure: "Failed to update order",
      async run({ chapterId, orderedIds, listRevision }) {
        await reorderSections(store, chapterId, orderedIds, listRevision);
        return "Order updated successfully!";
      },
    }),
  };
}
