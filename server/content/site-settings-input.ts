import { z } from "zod";
import { optionalHttpUrl, revisionField } from "./fields.ts";

/**
 * What may be written to the site settings (the site_settings table): the service
 * (site-settings.ts) parses its input with these schemas, and the Site Settings form
 * checks the same rules in the browser, so this module holds nothing but zod.
 */

export const SITE_SETTING_KEYS = ["linkedin_url", "resume_url"] as const;
export type SiteSettingKey = (typeof SITE_SETTING_KEYS)[number];

// Links to other sites only: an empty value unsets the link (the About page hides its button).
export const siteSettingEntry = z.object({ revision: revisionField, value: optionalHttpUrl.default("") });

/** Any of the settings; nothing else. */
export const siteSettingsChangesSchema = z.strictObject({
  linkedin_url: siteSettingEntry.optional(),
  resume_url: siteSettingEntry.optional(),
});

/** The settings to save, each with the revision the editor saw. */
export type SiteSettingsChanges = z.input<typeof siteSettingsChangesSchema>;
