import { formIntent } from "~/lib/form-action.server";
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
    [PROJECTS_INTENTS.createChapter]: formIntent({
      schema: createChapterSchema,
      failure: "Failed to create chapter",
      async run(chapter) {
        await createChapter(store, chapter);
        return "Chapter created successfully!";
      },
    }),
    [PROJECTS_INTENTS.updateChapter]: formIntent({
      schema: editChapterSchema,
      failure: "Failed to update chapter",
      async run({ id, ...changes }) {
        await updateChapter(store, id, changes);
        return "Chapter updated successfully!";
      },
    }),
    [PROJECTS_INTENTS.deleteChapter]: formIntent({
      schema: deleteChapterSchema,
      failure: "Failed to delete chapter",
      async run({ id }) {
        await deleteChapter(store, id);
        return "Chapter deleted successfully!";
      },
    }),
    [PROJECTS_INTENTS.addSection]: formIntent({
      schema: addSectionSchema,
      failure: "Failed to add section",
      async run(section) {
        await createSection(store, section);
        return "Section added successfully!";
      },
    }),
    [PROJECTS_INTENTS.updateSection]: formIntent({
      schema: editSectionSchema,
      failure: "Failed to update section",
      async run({ id, ...changes }) {
        await updateSection(store, id, changes);
        return "Section updated successfully!";
      },
    }),
    [PROJECTS_INTENTS.deleteSection]: formIntent({
      schema: deleteSectionSchema,
      failure: "Failed to delete section",
      async run({ id }) {
        await deleteSection(store, id);
        return "Section deleted successfully!";
      },
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
