import { z } from "zod";
import { siteSettingEntry } from "../../../server/content/site-settings-input.ts";

/** The Site Settings form, read by the browser and again by the action; the rules are the service's. */

export const SAVE_SITE_SETTINGS_INTENT = "save-site-settings";

/** Both links are saved together, each with the revision the form was opened at. */
export const siteSettingsFormSchema = z.object({ linkedin_url: siteSettingEntry, resume_url: siteSettingEntry });
