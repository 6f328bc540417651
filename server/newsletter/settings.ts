import type { Kysely } from "kysely";
import { type EditorEntry, type EntryTable, readEntries, saveEntries } from "../content/entries.ts";
import type { ContentStore } from "../content/store.ts";
import type { Database } from "../db/schema.ts";
import { parseInput } from "../validation.ts";
import {
  NEWSLETTER_SETTING_KEYS,
  type NewsletterSettingKey,
  type NewsletterSettingsChanges,
  newsletterSettingsChangesSchema,
} from "./settings-input.ts";

/**
 * The newsletter_settings table: automatic notifications and the welcome email (the
 * Newsletter Settings tab of /admin/home). The only writer of that table; the mail
 * code reads it.
 */

export const NEWSLETTER_SETTING_DEFAULTS: Readonly<Record<NewsletterSettingKey, string>> = {
  auto_send_enabled: "true",
  welcome_email_subject: "Welcome to Premier Updates",
  welcome_email_body:
    "Thanks for confirming your subscription. You will get an email whenever a new project, tip or resource is published. You can unsubscribe at any time with the link at the bottom of every email.",
};

/** Inserts the keys that are missing; never overwrites what an admin changed. */
export async function seedNewsletterSettings(db: Kysely<Database>): Promise<void> {
  await db
    .insertInto("newsletter_settings")
    .values(
      Object.entries(NEWSLETTER_SETTING_DEFAULTS).map(([setting_key, setting_value]) => ({
        setting_key,
        setting_value,
      })),
    )
    .onConflict((conflict) => conflict.column("setting_key").doNothing())
    .execute();
}

export type NewsletterSettingsForEditor = Record<NewsletterSettingKey, EditorEntry>;

const NEWSLETTER_SETTINGS: EntryTable<NewsletterSettingKey> = {
  table: "newsletter_settings",
  keyColumn: "setting_key",
  valueColumn: "setting_value",
  thing: "settings",
  entity: "newsletter-settings",
  keys: NEWSLETTER_SETTING_KEYS,
  defaults: NEWSLETTER_SETTING_DEFAULTS,
};

/** Every setting with its revision, defaults for missing keys, for the settings form. */
export async function getNewsletterSettingsForEditor(db: Kysely<Database>): Promise<NewsletterSettingsForEditor> {
  return readEntries(db, NEWSLETTER_SETTINGS);
}

/**
 * Saves the settings together, each at the revision the admin saw, in the keys' order,
 * with an audit row: all or none (saveEntries), so a save over another admin's change
 * is refused (Conflict) instead of putting their value back. Callers check the admin
 * role first.
 */
export async function updateNewsletterSettings(
  store: ContentStore,
  changes: NewsletterSettingsChanges,
): Promise<NewsletterSettingsForEditor> {
  const { auto_send_enabled, ...texts } = parseInput(newsletterSettingsChangesSchema, changes);
  const stored = auto_send_enabled && { ...auto_send_enabled, value: String(auto_send_enabled.value) };
  return saveEntries(store, NEWSLETTER_SETTINGS, { ...texts, auto_send_enabled: stored });
}
