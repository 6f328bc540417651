import type { Kysely } from "kysely";
import { seedAboutContent } from "../content/about.ts";
import { seedHomeContent } from "../content/home.ts";
import { seedSiteSettings } from "../content/site-settings.ts";
import { seedNewsletterSettings } from "../newsletter/settings.ts";
import type { Database } from "./schema.ts";

/** Default content for a new site. Safe to run at every start: existing keys are kept. */
export async function seedDefaults(db: Kysely<Database>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await seedHomeContent(trx);
    await seedAboutContent(trx);
    await seedSiteSettings(trx);
    await seedNewsletterSettings(trx);
  });
}
