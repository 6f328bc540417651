import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";

/** The newsletter_settings table: automatic notifications and the welcome email. */

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
