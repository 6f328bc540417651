import { z } from "zod";
import { revisionField } from "../content/fields.ts";

/**
 * What may be written to the newsletter settings (the newsletter_settings table): the
 * service (settings.ts) parses its input with these schemas, and the Newsletter
 * Settings form checks the same rules in the browser, so this module holds nothing but zod.
 */

/** The keys, in the order a save writes them. */
export const NEWSLETTER_SETTING_KEYS = ["auto_send_enabled", "welcome_email_subject", "welcome_email_body"] as const;
export type NewsletterSettingKey = (typeof NEWSLETTER_SETTING_KEYS)[number];

/** Each setting with the revision the editor saw; the switch's value is a boolean, stored as "true" or "false". */
export const newsletterSettingEntries = {
  auto_send_enabled: z.object({ revision: revisionField, value: z.boolean().default(false) }),
  welcome_email_subject: z.object({
    revision: revisionField,
    value: z
      .string({ message: "The welcome email subject is required" })
      .trim()
      .min(1, "The welcome email subject is required")
      .max(200, "The welcome email subject must be at most 200 characters")
      // One line in a mail header: runs of white space (a pasted line break) become one space.
      .transform((value) => value.replace(/\s+/g, " ")),
  }),
  welcome_email_body: z.object({
    revision: revisionField,
    value: z
      .string({ message: "The welcome email message is required" })
      .trim()
      .min(1, "The welcome email message is required")
      .max(5000, "The welcome email message must be at most 5000 characters"),
  }),
};

/** Any of the settings; nothing else. */
export const newsletterSettingsChangesSchema = z.strictObject({
  auto_send_enabled: newsletterSettingEntries.auto_send_enabled.optional(),
  welcome_email_subject: newsletterSettingEntries.welcome_email_subject.optional(),
  welcome_email_body: newsletterSettingEntries.welcome_email_body.optional(),
});

/** The settings to save, each with the revision the editor saw. */
export type NewsletterSettingsChanges = z.input<typeof newsletterSettingsChangesSchema>;
