import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { Conflict, Invalid } from "../errors.ts";

/**
 * The list_revisions table: the only module that writes it. An ordered list (the
 * chapters, a chapter's sections, the About page's lists) has a revision of its
 * membership and order, raised by every addition, removal and reorder. A reorder
 * names the revision the editor saw, so it never rearranges a list the editor has
 * not seen. A list without a row is at revision 0.
 */

export const listKeys = {
  chapters: "chapters",
  sections: (chapterId: string) => `chapter_sections:${chapterId}`,
  certifications: "certifications",
  skills: "skills",
  timelineEvents: "timeline_events",
} as const;

/** An ordered list as its editor sees it: the items in order and the list's revision. */
export interface RevisionedList<Item> {
  items: Item[];
  revision: number;
}

const STALE_LIST_MESSAGE =
  "This list was changed by someone else since you opened it. Reload to see the latest version.";

export async function getListRevision(db: Kysely<Database>, key: string): Promise<number> {
  const row = await db.selectFrom("list_revisions").select("revision").where("list_key", "=", key).executeTakeFirst();
  return row?.revision ?? 0;
}

/**
 * Reads a list with its revision. The revision is read first: should the list change
 * in between, the editor holds an older revision than its items, and its next reorder
 * is refused rather than applied to a list it has not seen.
 */
export async function readRevisionedList<Item>(
  db: Kysely<Database>,
  key: string,
  readItems: () => Promise<Item[]>,
): Promise<RevisionedList<Item>> {
  const revision = await getListRevision(db, key);
  return { items: await readItems(), revision };
}

/** An item was added to or removed from the list. */
export async function bumpListRevision(trx: Kysely<Database>, key: string): Promise<void> {
  await trx
    .insertInto("list_revisions")
    .values({ list_key: key, revision: 1 })
    .onConflict((conflict) =>
      conflict.column("list_key").doUpdateSet((eb) => ({ revision: eb("list_revisions.revision", "+", 1) })),
    )
    .execute();
}

/** The list itself is gone (its chapter was deleted). */
export async function forgetListRevision(trx: Kysely<Database>, key: string): Promise<void> {
  await trx.deleteFrom("list_revisions").where("list_key", "=", key).execute();
}

/** Refuses a reorder made against another revision than the list's current one (without raising it). */
export async function checkListRevision(db: Kysely<Database>, key: string, expected: number): Promise<void> {
  if ((await getListRevision(db, key)) !== expected) throw new Conflict(STALE_LIST_MESSAGE);
}

/**
 * Raises the list's revision for a reorder made at `expected`. When the list moved on,
 * `alreadyDone` (read afresh) may say the list is already as asked (the same reorder
 * sent twice): false, nothing to write. Otherwise a stale revision is a Conflict.
 */
export async function claimListRevision(
  trx: Kysely<Database>,
  key: string,
  expected: number,
  alreadyDone: () => Promise<boolean> = async () => false,
): Promise<boolean> {
  const raised = await trx
    .updateTable("list_revisions")
    .set((eb) => ({ revision: eb("revision", "+", 1) }))
    .where("list_key", "=", key)
    .where("revision", "=", expected)
    .executeTakeFirst();
  if (Number(raised.numUpdatedRows) > 0) return true;
  if (expected === 0) {
    const created = await trx
      .insertInto("list_revisions")
      .values({ list_key: key, revision: 1 })
      .onConflict((conflict) => conflict.column("list_key").doNothing())
      .returning("list_key")
      .executeTakeFirst();
    if (created) return true;
  }
  if (await alreadyDone()) return false;
  throw new Conflict(STALE_LIST_MESSAGE);
}

export function sameOrder(ids: readonly string[], others: readonly string[]): boolean {
  return ids.length === others.length && ids.every((id, index) => id === others[index]);
}

/** Refuses a new order that does not name each item of the list exactly once. */
export function assertReorderOf(currentIds: readonly string[], orderedIds: readonly string[]): void {
  if (!sameOrder([...currentIds].sort(), [...orderedIds].sort())) {
    throw new Invalid({ orderedIds: "The new order must name each item of the list exactly once." });
  }
}
