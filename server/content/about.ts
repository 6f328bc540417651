import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";

/** The site_content table: the About page's name, title, biography and mission. */

export const ABOUT_CONTENT_DEFAULTS: Readonly<Record<string, string>> = {
  about_name: "Your Name",
  about_title: "Cybersecurity Engineer",
  about_bio_1:
    "I help organisations find and fix weaknesses before attackers do, with a focus on vulnerability management and cloud security.",
  about_bio_2:
    "My work spans scanning programmes, hardening cloud accounts and turning findings into fixes that engineering teams can ship.",
  about_bio_3: "Outside of work I write courses and tips so that others can learn the craft faster than I did.",
  about_mission: "To make practical security knowledge easy to find, easy to follow and free to use.",
};

/** Inserts the keys that are missing; never overwrites what an admin changed. */
export async function seedAboutContent(db: Kysely<Database>): Promise<void> {
  await db
    .insertInto("site_content")
    .values(Object.entries(ABOUT_CONTENT_DEFAULTS).map(([key, value]) => ({ key, value })))
    .onConflict((conflict) => conflict.column("key").doNothing())
    .execute();
}
