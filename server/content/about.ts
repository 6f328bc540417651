import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { parseInput } from "../validation.ts";
import {
  ABOUT_CONTENT_KEYS,
  type AboutContentChanges,
  type AboutContentKey,
  aboutContentChangesSchema,
} from "./about-input.ts";
import { type EditorEntry, type EntryTable, readEntries, saveEntries } from "./entries.ts";
import type { ContentStore } from "./store.ts";

/**
 * The site_content table: the About page's name, title, biography and mission. The
 * Biography & Content editor saves them together, each at the revision the editor
 * saw: all of them, or none.
 */

// The pages that read the texts name their keys from here.
export type { AboutContentKey };

export const ABOUT_CONTENT_DEFAULTS: Readonly<Record<AboutContentKey, string>> = {
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

export type AboutEditorContent = Record<AboutContentKey, EditorEntry>;

const ABOUT_CONTENT: EntryTable<AboutContentKey> = {
  table: "site_content",
  keyColumn: "key",
  valueColumn: "value",
  thing: "about content",
  entity: "about-content",
  keys: ABOUT_CONTENT_KEYS,
  defaults: ABOUT_CONTENT_DEFAULTS,
};

/** Every entry of the Biography & Content editor with its revision. */
export async function getAboutContentForEditor(db: Kysely<Database>): Promise<AboutEditorContent> {
  return readEntries(db, ABOUT_CONTENT);
}

/** Saves the editor's entries together, each at its revision: all or none (saveEntries). */
export async function updateAboutContent(
  store: ContentStore,
  changes: AboutContentChanges,
): Promise<AboutEditorContent> {
  return saveEntries(store, ABOUT_CONTENT, parseInput(aboutContentChangesSchema, changes));
}
