import { z } from "zod";
import { newsletterSettingEntries } from "../../../server/newsletter/settings-input.ts";

/** The forms of /admin/newsletter and of the Newsletter Settings tab, read by the browser and again by the actions. */

/** The row an action is about: a subscriber, a suppression entry or an outbox email. */
export const recordSchema = z.object({
  id: z.string({ message: "A record id is required" }).trim().min(1, "A record id is required").max(200),
});

export const addSuppressionSchema = z.object({
  email: z
    .string({ message: "Please enter an email address" })
    .trim()
    .max(320, "The email address is too long")
    .pipe(z.email({ message: "Please enter a valid email address" })),
  reason: z.string().trim().max(500, "The reason must be at most 500 characters").optional(),
});

/** Every setting is saved together, each with the revision the form was opened at. */
export const newsletterSettingsSchema = z.object(newsletterSettingEntries);
