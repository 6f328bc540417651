import { z } from "zod";

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

export const newsletterSettingsSchema = z.object({
  auto_send_enabled: z.boolean().default(false),
  welcome_email_subject: z
    .string({ message: "The welcome email subject is required" })
    .trim()
    .min(1, "The welcome email subject is required")
    .max(200, "The welcome email subject must be at most 200 characters")
    // One line in a mail header: runs of white space (a pasted line break) become one space.
    .transform((value) => value.replace(/\s+/g, " ")),
  welcome_email_body: z
    .string({ message: "The welcome email message is required" })
    .trim()
    .min(1, "The welcome email message is required")
    .max(5000, "The welcome email message must be at most 5000 characters"),
});
