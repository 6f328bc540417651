import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { parseInput } from "../validation.ts";
import { saveAtRevision } from "./revisions.ts";
import {
  SITE_SETTING_KEYS,
  type SiteSettingKey,
  type SiteSettingsChanges,
  siteSettingsChangesSchema,
} from "./site-settings-input.ts";
import { type ContentStore, writeContent } from "./store.ts";

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

/** One setting as the editor shows it; revision 0 for a setting that was never saved. */
export interface SiteSettingEntry {
  value: string;
  revision: number;
}

export type SiteSettingsForEditor = Record<SiteSettingKey, SiteSettingEntry>;

function toEntry(key: SiteSettingKey, row: { setting_value: string; revision: number } | undefined): SiteSettingEntry {
  return { value: row?.setting_value ?? DEFAULT_SITE_SETTINGS[key], revision: row?.revision ?? 0 };
}

/** Every setting with its revision, for the Site Settings editor. */
export async function getSiteSettingsForEditor(db: Kysely<Database>): Promise<SiteSettingsForEditor> {
  const rows = await db.selectFrom("site_settings").select(["setting_key", "setting_value", "revision"]).execute();
  const byKey = new Map(rows.map((row) => [row.setting_key, row]));
  return {
    linkedin_url: toEntry("linkedin_url", byKey.get("linkedin_url")),
    resume_url: toEntry("resume_url", byKey.get("resume_url")),
  };
}

/**
 * Saves the settings in one transaction. Any setting changed by someone else since the
 * editor opened it refuses the whole save (Conflict), unless it already holds what is
 * being saved. Returns the settings as they now are.
 */
export async function updateSiteSettings(
  store: ContentStore,
  changes: SiteSettingsChanges,
): Promise<SiteSettingsForEditor> {
  const data = parseInput(siteSettingsChangesSchema, changes);
  return writeContent(store, async ({ trx, audit }) => {
    const saved: SiteSettingKey[] = [];
    for (const key of SITE_SETTING_KEYS) {
      const change = data[key];
      if (!change) continue;
      const read = async () => {
        const row = await trx.selectFrom("site_settings").selectAll().where("setting_key", "=", key).executeTakeFirst();
        return { ...toEntry(key, row), exists: row !== undefined };
      };
      const { before } = await saveAtRevision("settings", change.revision, {
        read,
        holds: (current) => current.value === change.value,
        async write(current) {
          const row = current.exists
            ? await trx
                .updateTable("site_settings")
                .set((eb) => ({ setting_value: change.value, revision: eb("revision", "+", 1) }))
                .where("setting_key", "=", key)
                .where("revision", "=", change.revision)
                .returningAll()
                .executeTakeFirst()
            : await trx
                .insertInto("site_settings")
                .values({ setting_key: key, setting_value: change.value })
                .onConflict((conflict) => conflict.column("setting_key").doNothing())
                .returningAll()
                .executeTakeFirst();
          return row && { ...toEntry(key, row), exists: true };
        },
      });
      if (before) saved.push(key);
    }
    if (saved.length > 0) {
      await audit({ action: "site-settings.updated", entity: "site-settings", entityId: null, details: { saved } });
    }
    return getSiteSettingsForEditor(trx);
  });
}
