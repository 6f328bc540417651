import { z } from "zod";
import { aboutContentEntries } from "../../../server/content/about-input.ts";
import { itemIdField, orderedIdsField, revisionField } from "../../../server/content/fields.ts";
import {
  newCertificationSchema,
  newSkillSchema,
  newTimelineEventSchema,
} from "../../../server/content/profile-input.ts";
import { CERTIFICATION_STATUS_BADGES, TIMELINE_CATEGORY_LABELS } from "./labels";

/** The forms of /admin/about, read by the browser and again by the action; the field rules are the services'. */

export const SAVE_ABOUT_CONTENT_INTENT = "save-about-content";

/** Biography & Content saves every entry together, each with the revision the form was opened at. */
export const aboutContentFormSchema = z.object(aboutContentEntries);

const id = itemIdField;

export const deleteItemSchema = z.object({ id });
/** Moves and reorders name the list's revision: a list changed by someone else is not rearranged blind. */
export const moveItemUpSchema = z.object({ id, listRevision: revisionField });
export const reorderListSchema = z.object({ orderedIds: orderedIdsField, listRevision: revisionField });

/** The intents of one list's forms; the three lists behave the same. */
export interface ListIntents {
  create: string;
  update: string;
  delete: string;
  moveUp: string;
  reorder: string;
}

function listIntents(thing: string, list: string): ListIntents {
  return {
    create: `create-${thing}`,
    update: `update-${thing}`,
    delete: `delete-${thing}`,
    moveUp: `move-${thing}-up`,
    reorder: `reorder-${list}`,
  };
}

// Each list's add form, and its edit form: every field is sent (an emptied one is saved
// empty) with the revision the dialog opened at.

export const CERTIFICATION_FORMS = {
  intents: listIntents("certification", "certifications"),
  add: newCertificationSchema,
  edit: newCertificationSchema.extend({ id, revision: revisionField }),
};

export const SKILL_FORMS = {
  intents: listIntents("skill", "skills"),
  add: newSkillSchema,
  edit: newSkillSchema.extend({ id, revision: revisionField }),
};

export const TIMELINE_EVENT_FORMS = {
  intents: listIntents("timeline-event", "timeline-events"),
  add: newTimelineEventSchema,
  edit: newTimelineEventSchema.extend({ id, revision: revisionField }),
};

export const CERTIFICATION_STATUS_OPTIONS = Object.entries(CERTIFICATION_STATUS_BADGES).map(([value, { label }]) => ({
  value,
  label,
}));
export const TIMELINE_CATEGORY_OPTIONS = Object.entries(TIMELINE_CATEGORY_LABELS).map(([value, label]) => ({
  value,
  label,
}));
