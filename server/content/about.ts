import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { parseInput } from "../validation.ts";
import {
  ABOUT_CONTENT_KEYS,
  type AboutContentChanges,
  type AboutContentKey,
  aboutContentChangesSchema,
} from "./about-input.ts";
import { saveAtRevision } from "./revisions.ts";
import { type ContentStore, writeContent } from "./store.ts";

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

/** One entry as the editor shows it; revision 0 for an entry that was never saved. */
export interface AboutEditorEntry {
  value: string;
  revision: number;
}

export type AboutEditorContent = Record<AboutContentKey, AboutEditorEntry>;

function toEditorEntry(key: AboutContentKey, row: { value: string; revision: number } | undefined): AboutEditorEntry {
  return { value: row?.value ?? ABOUT_CONTENT_DEFAULTS[key], revision: row?.revision ?? 0 };
}

/** Every entry of the Biography & Content editor with its revision. */
export async function getAboutContentForEditor(db: Kysely<Database>): Promise<AboutEditorContent> {
  const rows = await db.selectFrom("site_content").select(["key", "value", "revision"]).execute();
  const byKey = new Map(rows.map((row) => [row.key, row]));
  const content = {} as AboutEditorContent;
  for (const key of ABOUT_CONTENT_KEYS) content[key] = toEditorEntry(key, byKey.get(key));
  return content;
}

/**
 * Saves the editor's entries in one transaction. Any entry changed by someone else
 * since the editor opened it refuses the whole save (Conflict), unless it already holds
 * what is being saved. Returns the entries as they now are.
 */
export async function updateAboutContent(
  store: ContentStore,
  changes: AboutContentChanges,
): Promise<AboutEditorContent> {
  const data = parseInput(aboutContentChangesSchema, changes);
  return writeContent(store, async ({ trx, audit }) => {
    const saved: AboutContentKey[] = [];
    for (const key of ABOUT_CONTENT_KEYS) {
      const change = data[key];
      if (!change) continue;
      const read = async () => {
        const row = await trx.selectFrom("site_content").selectAll().where("key", "=", key).executeTakeFirst();
        return { ...toEditorEntry(key, row), exists: row !== undefined };
      };
      const { before } = await saveAtRevision("about content", change.revision, {
        read,
        holds: (current) => current.value === change.value,
        async write(current) {
          const row = current.exists
            ? await trx
                .updateTable("site_content")
                .set((eb) => ({ value: change.value, revision: eb("revision", "+", 1) }))
                .where("key", "=", key)
                .where("revision", "=", change.revision)
                .returningAll()
                .executeTakeFirst()
            : await trx
                .insertInto("site_content")
                .values({ key, value: change.value })
                .onConflict((conflict) => conflict.column("key").doNothing())
                .returningAll()
                .executeTakeFirst();
          return row && { ...toEditorEntry(key, row), exists: true };
        },
      });
      if (before) saved.push(key);
    }
    if (saved.length > 0) {
      await audit({ action: "about-content.updated", entity: "about-content", entityId: null, details: { saved } });
    }
    return getAboutContentForEditor(trx);
  });
}
