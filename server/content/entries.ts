import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { dynamicTables } from "./dynamic-tables.ts";
import { type EditedThing, saveAtRevision } from "./revisions.ts";
import { type ContentStore, writeContent } from "./store.ts";

/**
 * Texts kept one row per key (the About page's texts in site_content, the links in
 * site_settings, the newsletter's settings in newsletter_settings), which an editor
 * saves together, each at the revision it was opened at: all of them, or none. The
 * tables name their columns differently, and Kysely cannot type a query over a union
 * of tables, so these run on dynamic-tables.ts's view.
 */

/** A table of entries by key, and how messages and the audit log name it. */
export interface EntryTable<Key extends string> {
  table: "site_content" | "site_settings" | "newsletter_settings";
  keyColumn: "key" | "setting_key";
  valueColumn: "value" | "setting_value";
  thing: EditedThing;
  /** The audit log's entity; a save is "{entity}.updated". */
  entity: string;
  keys: readonly Key[];
  /** What an entry reads before it was ever saved. */
  defaults: Readonly<Record<Key, string>>;
}

/** One entry as the editor shows it (revision 0: never saved) and as it sends it back. */
export interface EditorEntry {
  value: string;
  revision: number;
}

type EntryRow = Record<string, unknown> & { revision: number };

function toEntry<Key extends string>(target: EntryTable<Key>, key: Key, row: EntryRow | undefined): EditorEntry {
  return {
    value: (row?.[target.valueColumn] as string | undefined) ?? target.defaults[key],
    revision: row?.revision ?? 0,
  };
}

/** Every entry with its revision, for the editor. */
export async function readEntries<Key extends string>(
  db: Kysely<Database>,
  target: EntryTable<Key>,
): Promise<Record<Key, EditorEntry>> {
  const rows = (await dynamicTables(db)
    .selectFrom(target.table)
    .select([target.keyColumn, target.valueColumn, "revision"])
    .execute()) as EntryRow[];
  const byKey = new Map(rows.map((row) => [row[target.keyColumn], row]));
  const entries = {} as Record<Key, EditorEntry>;
  for (const key of target.keys) entries[key] = toEntry(target, key, byKey.get(key));
  return entries;
}

/**
 * Saves the changed entries in one transaction. Any entry changed by someone else
 * since the editor opened it refuses the whole save (Conflict), unless it already holds
 * what is being saved. Returns the entries as they now are.
 */
export async function saveEntries<Key extends string>(
  store: ContentStore,
  target: EntryTable<Key>,
  changes: Partial<Record<Key, EditorEntry>>,
): Promise<Record<Key, EditorEntry>> {
  return writeContent(store, async ({ trx, audit }) => {
    const db = dynamicTables(trx);
    const saved: Key[] = [];
    for (const key of target.keys) {
      const change = changes[key];
      if (!change) continue;
      const read = async () => {
        const row = (await db
          .selectFrom(target.table)
          .selectAll()
          .where(target.keyColumn, "=", key)
          .executeTakeFirst()) as EntryRow | undefined;
        return { ...toEntry(target, key, row), exists: row !== undefined };
      };
      const { before } = await saveAtRevision(target.thing, change.revision, {
        read,
        holds: (current) => current.value === change.value,
        async write(current) {
          const row = (
            current.exists
              ? await db
                  .updateTable(target.table)
                  .set((eb) => ({ [target.valueColumn]: change.value, revision: eb("revision", "+", 1) }))
                  .where(target.keyColumn, "=", key)
                  .where("revision", "=", change.revision)
                  .returningAll()
                  .executeTakeFirst()
              : await db
                  .insertInto(target.table)
                  .values({ [target.keyColumn]: key, [target.valueColumn]: change.value })
                  .onConflict((conflict) => conflict.column(target.keyColumn).doNothing())
                  .returningAll()
                  .executeTakeFirst()
          ) as EntryRow | undefined;
          return row && { ...toEntry(target, key, row), exists: true };
        },
      });
      if (before) saved.push(key);
    }
    if (saved.length > 0) {
      await audit({ action: `${target.entity}.updated`, entity: target.entity, entityId: null, details: { saved } });
    }
    return readEntries(trx, target);
  });
}
