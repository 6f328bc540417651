import { z } from "zod";
import { newChapterSchema } from "../../../server/content/chapter-input.ts";
import { itemIdField, orderedIdsField, revisionField } from "../../../server/content/fields.ts";
import { newSectionSchema, sectionFields, withImageUrlCheck } from "../../../server/content/section-input.ts";

/**
 * The forms of /admin/projects, read by the browser and again by the action; the field
 * rules are the services' (chapter-input.ts, section-input.ts).
 */

const id = itemIdField;

// A switch left off sends nothing: in these forms a missing `published` means off
// (the service's own default, on, is for callers that leave it out).
const publishedSwitch = z.boolean().default(false);

export const createChapterSchema = newChapterSchema.extend({ published: publishedSwitch });
/** Every field is sent, with the revision the dialog opened at; a blank number or order keeps the current one. */
export const editChapterSchema = newChapterSchema.extend({ id, revision: revisionField, published: publishedSwitch });
export const deleteChapterSchema = z.object({ id });

export const addSectionSchema = withImageUrlCheck(newSectionSchema);
export const editSectionSchema = withImageUrlCheck(z.object({ id, revision: revisionField, ...sectionFields }));
export const deleteSectionSchema = z.object({ id });

/** Both carry the revision of the list the editor sees, so neither rearranges a list changed since. */
export const moveSectionSchema = z.object({ id, direction: z.enum(["up", "down"]), listRevision: revisionField });
export const reorderSectionsSchema = z.object({
  chapterId: id,
  orderedIds: orderedIdsField,
  listRevision: revisionField,
});

/** The section editor's current values, for its live preview (no chapter, no revision: nothing is saved). */
export const sectionPreviewSchema = withImageUrlCheck(z.object(sectionFields));

export const PROJECTS_INTENTS = {
  createChapter: "create-chapter",
  updateChapter: "update-chapter",
  deleteChapter: "delete-chapter",
  addSection: "add-section",
  updateSection: "update-section",
  deleteSection: "delete-section",
  moveSection: "move-section",
  reorderSections: "reorder-sections",
  previewSection: "preview-section",
} as const;
