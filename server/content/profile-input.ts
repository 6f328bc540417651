import { z } from "zod";
import { CERTIFICATION_STATUSES, TIMELINE_CATEGORIES } from "../db/schema.ts";
import { revisionField } from "./fields.ts";

/**
 * What may be written to the About page's lists (certifications, skills, timeline
 * events): the service (profile.ts) parses its input with these schemas, and the
 * admin's forms check the same rules in the browser, so this module holds nothing but
 * zod and the schema's constants.
 */

const name = z.string({ error: "Name is required" }).trim().min(1, "Name is required").max(200, "Name is too long");
const shortText = z.string().trim().max(200, "At most 200 characters");
const longText = z.string().trim().max(2000, "At most 2000 characters");

const certificationFields = {
  name,
  organization: shortText,
  description: longText,
  date: shortText,
  status: z.enum(CERTIFICATION_STATUSES, { error: "Choose a status" }),
};
export const newCertificationSchema = z.object({
  name,
  organization: shortText.default(""),
  description: longText.default(""),
  date: shortText.default(""),
  status: certificationFields.status.default("completed"),
});
export const certificationChangesSchema = z.object(certificationFields).partial().extend({ revision: revisionField });

/** The skill level's slider: 0 to 100 in steps of 5, 50 for a new skill, shown as a percentage. */
export const SKILL_LEVEL = { min: 0, max: 100, step: 5, initial: 50 } as const;

const LEVEL_MESSAGE = "Level must be a number from 0 to 100";
const skillFields = {
  name,
  level: z
    .number({ error: LEVEL_MESSAGE })
    .int("Level must be a multiple of 5")
    .min(SKILL_LEVEL.min, LEVEL_MESSAGE)
    .max(SKILL_LEVEL.max, LEVEL_MESSAGE)
    .multipleOf(SKILL_LEVEL.step, "Level must be a multiple of 5"),
  category: shortText.nullish().transform((value) => (value ? value : null)),
};
export const newSkillSchema = z.object({ ...skillFields, level: skillFields.level.default(SKILL_LEVEL.initial) });
export const skillChangesSchema = z.object(skillFields).partial().extend({ revision: revisionField });

const eventFields = {
  date: z.string({ error: "Date is required" }).trim().min(1, "Date is required").max(50, "Date is too long"),
  title: z.string({ error: "Title is required" }).trim().min(1, "Title is required").max(200, "Title is too long"),
  description: longText,
  category: z.enum(TIMELINE_CATEGORIES, { error: "Choose a category" }),
};
export const newTimelineEventSchema = z.object({
  ...eventFields,
  description: longText.default(""),
  category: eventFields.category.default("project"),
});
export const timelineEventChangesSchema = z.object(eventFields).partial().extend({ revision: revisionField });

export type NewCertification = z.input<typeof newCertificationSchema>;
export type CertificationChanges = z.input<typeof certificationChangesSchema>;
export type NewSkill = z.input<typeof newSkillSchema>;
export type SkillChanges = z.input<typeof skillChangesSchema>;
export type NewTimelineEvent = z.input<typeof newTimelineEventSchema>;
export type TimelineEventChanges = z.input<typeof timelineEventChangesSchema>;
