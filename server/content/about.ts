import type { Kysely } from "kysely";
import { z } from "zod";
import type { Database } from "../db/schema.ts";
import { parseInput } from "../validation.ts";
import { type ContentStore, changed } from "./store.ts";

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

export const ABOUT_CONTENT_KEYS = Object.keys(ABOUT_CONTENT_DEFAULTS);

const aboutChangesSchema = z.record(z.string(), z.string().trim().max(5000)).superRefine((changes, context) => {
  for (const key of Object.keys(changes)) {
    if (!ABOUT_CONTENT_KEYS.includes(key)) context.addIssue({ code: "custom", path: [key], message: "Unknown key" });
  }
});

/** Saves some site_content keys (about_name, about_title, about_bio_1..3, about_mission). */
export async function updateAboutContent(store: ContentStore, changes: Record<string, string>): Promise<void> {
  const data = parseInput(aboutChangesSchema, changes);
  const entries = Object.entries(data);
  if (entries.length === 0) return;
  await store.db
    .insertInto("site_content")
    .values(entries.map(([key, value]) => ({ key, value })))
    .onConflict((conflict) => conflict.column("key").doUpdateSet((eb) => ({ value: eb.ref("excluded.value") })))
    .execute();
  await changed(store);
}
