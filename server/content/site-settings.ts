import type { Kysely } from "kysely";
import { z } from "zod";
import type { Database } from "../db/schema.ts";
import { parseInput } from "../validation.ts";
import { type ContentStore, changed, optionalLink } from "./store.ts";

/** The site_settings table: links used by the footer and the About page. */

export const SITE_SETTING_KEYS = ["linkedin_url", "resume_url"] as const;
export type SiteSettingKey = (typeof SITE_SETTING_KEYS)[number];
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

export async function getSiteSettings(db: Kysely<Database>): Promise<SiteSettings> {
  const rows = await db.selectFrom("site_settings").select(["setting_key", "setting_value"]).execute();
  const settings = { ...DEFAULT_SITE_SETTINGS };
  for (const row of rows) {
    if ((SITE_SETTING_KEYS as readonly string[]).includes(row.setting_key)) {
      settings[row.setting_key as SiteSettingKey] = row.setting_value;
    }
  }
  return settings;
}

const siteSettingsSchema = z.object({
  linkedin_url: optionalLink.optional(),
  resume_url: optionalLink.optional(),
});

/** Saves the given settings; an empty value unsets the link (the About page hides its button). */
export async function updateSiteSettings(store: ContentStore, changes: Partial<SiteSettings>): Promise<void> {
  const data = parseInput(siteSettingsSchema, changes);
  const entries = Object.entries(data).filter((entry): entry is [string, string] => entry[1] !== undefined);
  if (entries.length === 0) return;
  await store.db
    .insertInto("site_settings")
    .values(entries.map(([setting_key, setting_value]) => ({ setting_key, setting_value })))
    .onConflict((conflict) =>
      conflict.column("setting_key").doUpdateSet((eb) => ({ setting_value: eb.ref("excluded.setting_value") })),
    )
    .execute();
  await changed(store);
}
