import { dynamicTables } from "./dynamic-tables.ts";
import { changedColumns, type EditedThing, goneError, holdsValues, saveAtRevision } from "./revisions.ts";
import { type ContentStore, type ContentWrite, defined, writeContent } from "./store.ts";

/**
 * The edit and the delete of one row by its id, the same for the tips, the resources
 * and the About page's lists: a save at the revision the editor saw, audited with the
 * columns it changed; a delete audited with the row's name. The tables differ, and
 * Kysely cannot type a query over a union of tables, so these run on
 * dynamic-tables.ts's view and the callers map the rows back.
 */

/** A table of items edited one by one, and how messages and the audit log name them. */
export interface EditedTable {
  table: "tips_resources" | "resources" | "certifications" | "skills" | "timeline_events";
  thing: EditedThing;
  entity: string;
  /** The column that names an item in the audit log. */
  label: "name" | "title";
}

/** Saves `values` (those left undefined keep their column) to the row at `revision`; returns the row as it now is. */
export async function updateRowAtRevision<Row extends { revision: number }>(
  store: ContentStore,
  target: EditedTable,
  id: string,
  revision: number,
  values: Record<string, unknown>,
): Promise<Row> {
  const saved = defined(values);
  return writeContent(store, async ({ trx, audit }) => {
    const db = dynamicTables(trx);
    const { row, before } = await saveAtRevision<Row>(target.thing, revision, {
      read: async () =>
        (await db.selectFrom(target.table).selectAll().where("id", "=", id).executeTakeFirst()) as Row | undefined,
      holds: (current) => holdsValues(current, saved),
      write: async () =>
        (await db
          .updateTable(target.table)
          .set((eb) => ({ ...saved, revision: eb("revision", "+", 1) }))
          .where("id", "=", id)
          .where("revision", "=", revision)
          .returningAll()
          .executeTakeFirst()) as Row | undefined,
    });
    if (before) {
      const details = { changed: changedColumns(before, row, Object.keys(saved)) };
      await audit({ action: `${target.entity}.updated`, entity: target.entity, entityId: id, details });
    }
    return row;
  });
}

/**
 * Deletes the row (NotFound when it is gone already); `alongside` runs in the same
 * transaction before the audit row (a withdrawn notification, a list's new revision).
 */
export async function deleteRow(
  store: ContentStore,
  target: EditedTable,
  id: string,
  alongside?: (write: ContentWrite) => Promise<void>,
): Promise<void> {
  await writeContent(store, async (write) => {
    const row = await dynamicTables(write.trx)
      .deleteFrom(target.table)
      .where("id", "=", id)
      .returning(target.label)
      .executeTakeFirst();
    if (!row) throw goneError(target.thing);
    await alongside?.(write);
    const details = { [target.label]: row[target.label] };
    await write.audit({ action: `${target.entity}.deleted`, entity: target.entity, entityId: id, details });
  });
}
