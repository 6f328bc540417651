import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { parseInput } from "../validation.ts";
import { type EditorEntry, type EntryTable, readEntries, saveEntries } from "./entries.ts";
import {
  SITE_SETTING_KEYS,
  type SiteSettingKey,
  type SiteSettingsChanges,
  siteSettingsChangesSchema,
} from "./site-settings-input.ts";
import type { ContentStore } from "./store.ts";

/**
 * The site_settings table: the LinkedIn and resume links of the footer and the About
 * page. Site Settings saves them together, each at the revision the editor saw: all of
 * them, or none.
 */

export type SiteSettings = Record<SiteSettingKey, string>;

const DEFAULT_SITE_SETTINGS: SiteSettings = {
  linkedin_url: "https://www.linkedin.com/",
  resume_url: "",
};

/** Inserts the keys that are missing; never overwrites a value an admin saved. */
export async function seedSiteSettings(db: Kysely<Database>): Promise<void> {
  await db
    .insertInto("site_settings")
    .values(SITE_SETTING_KEYS.map((key) => ({ setting_key: key, setting_value: DEFAULT_SITE_SETTINGS[key] })))
    .onConflict((conflict) => conflict.column("setting_key").doNothing())
    .execute();
}

const isSettingKey = (key: string): key is SiteSettingKey => (SITE_SETTING_KEYS as readonly string[]).includes(key);

/** The settings' values, for the public pages ("" for an unset link). */
export async function getSiteSettings(db: Kysely<Database>): Promise<SiteSettings> {
  const rows = await db.selectFrom("site_settings").select(["setting_key", "setting_value"]).execute();
  const settings = { ...DEFAULT_SITE_SETTINGS };
  for (const row of rows) if (isSettingKey(row.setting_key)) settings[row.setting_key] = row.setting_value;
  return settings;
}

export type SiteSettingsForEditor = Record<SiteSettingKey, EditorEntry>;

const SITE_SETTINGS: EntryTable<SiteSettingKey> = {
  table: "site_settings",
  keyColumn: "setting_key",
  valueColumn: "setting_value",
  thing: "settings",
  entity: "site-settings",
  keys: SITE_SETTING_KEYS,
  defaults: DEFAULT_SITE_SETTINGS,
};

/** Every setting with its revision, for the Site Settings editor. */
export async function getSiteSettingsForEditor(db: Kysely<Database>): Promise<SiteSettingsForEditor> {
  return readEntries(db, SITE_SETTINGS);
}

/** Saves the settings together, each at its revision: all or none (saveEntries). */
export async function updateSiteSettings(
  store: ContentStore,
  changes: SiteSettingsChanges,
): Promise<SiteSettingsForEditor> {
  return saveEntries(store, SITE_SETTINGS, parseInput(siteSettingsChangesSchema, changes));
}
