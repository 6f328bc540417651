import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { Invalid } from "../errors.ts";

/**
 * The newsletter_settings table: automatic notifications and the welcome email (the
 * Newsletter Settings tab of /admin/home). The only writer of that table.
 */

export const NEWSLETTER_SETTING_DEFAULTS: Readonly<Record<string, string>> = {
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

/** The current settings, defaults filled in for missing keys. */
export async function getNewsletterSettings(db: Kysely<Database>): Promise<Record<string, string>> {
  const rows = await db.selectFrom("newsletter_settings").select(["setting_key", "setting_value"]).execute();
  const settings: Record<string, string> = { ...NEWSLETTER_SETTING_DEFAULTS };
  for (const row of rows) settings[row.setting_key] = row.setting_value;
  return settings;
}

/**
 * Writes the settings one key at a time, in the given order (the spec's "one update
 * per key"), in one transaction: a save is whole or nothing, so a write that fails
 * leaves every key as it was. An unknown key or a value out of range is Invalid
 * (naming the key as the field) before anything is written. Callers check the admin
 * role first.
 */
export async function updateNewsletterSettings(
  db: Kysely<Database>,
  entries: ReadonlyArray<readonly [string, string]>,
): Promise<void> {
  for (const [key, value] of entries) {
    if (!Object.hasOwn(NEWSLETTER_SETTING_DEFAULTS, key)) throw new Invalid({ [key]: `Unknown setting: ${key}` });
    if (key === "auto_send_enabled" && value !== "true" && value !== "false") {
      throw new Invalid({ [key]: "auto_send_enabled must be true or false" });
    }
  }
  await db.transaction().execute(async (trx) => {
    for (const [key, value] of entries) {
      await trx
        .insertInto("newsletter_settings")
        .values({ setting_key: key, setting_value: value })
        .onConflict((conflict) => conflict.column("setting_key").doUpdateSet({ setting_value: value }))
        .execute();
    }
  });
}
