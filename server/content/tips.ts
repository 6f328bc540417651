import type { Kysely, Selectable } from "kysely";
import { z } from "zod";
import { type Database, TIP_CATEGORIES, TIP_TYPES, type TipsResourcesTable } from "../db/schema.ts";
import { newId } from "../ids.ts";
import { parseInput } from "../validation.ts";
import { lenientOrderIndex, optionalLink, revisionField } from "./fields.ts";
import { contentPublished, contentWithdrawn, publishedPaths } from "./publishing.ts";
import { changedColumns, goneError, holdsValues, saveAtRevision } from "./revisions.ts";
import { type ContentStore, defined, writeContent } from "./store.ts";

/** The tips_resources table (the Tips & Tricks cards): the only module that writes it. */

export interface TipRecord {
  id: string;
  category: (typeof TIP_CATEGORIES)[number];
  title: string;
  description: string;
  url: string | null;
  type: (typeof TIP_TYPES)[number];
  orderIndex: number;
  createdAt: string;
  revision: number;
}

const fields = {
  category: z.enum(TIP_CATEGORIES, { error: "Choose a category" }),
  title: z.string({ error: "Title is required" }).trim().min(1, "Title is required").max(200, "Title is too long"),
  description: z.string().trim().max(2000, "Description is too long"),
  // Saved as null when empty (spec §3).
  url: optionalLink.nullish().transform((value) => (value ? value : null)),
  type: z.enum(TIP_TYPES, { error: "Choose a type" }),
};

const newTipSchema = z.object({
  ...fields,
  category: fields.category.default("Tenable"),
  description: fields.description.default(""),
  type: fields.type.default("external"),
  orderIndex: lenientOrderIndex.default(0),
});

const tipChangesSchema = z.object({
  revision: revisionField,
  category: fields.category.optional(),
  title: fields.title.optional(),
  description: fields.description.optional(),
  url: fields.url.optional(),
  type: fields.type.optional(),
  orderIndex: lenientOrderIndex.optional(),
});

/** orderIndex: a whole number from 0; anything else becomes 0. */
export type NewTip = Omit<z.input<typeof newTipSchema>, "orderIndex"> & { orderIndex?: number | string | null };
export type TipChanges = Omit<z.input<typeof tipChangesSchema>, "orderIndex"> & {
  orderIndex?: number | string | null;
};

type TipRow = Selectable<TipsResourcesTable>;

function toTip(row: TipRow): TipRecord {
  return {
    id: row.id,
    category: row.category,
    title: row.title,
    description: row.description,
    url: row.url,
    type: row.type,
    orderIndex: row.order_index,
    createdAt: row.created_at,
    revision: row.revision,
  };
}

export async function listTips(db: Kysely<Database>): Promise<TipRecord[]> {
  const rows = await db.selectFrom("tips_resources").selectAll().orderBy("order_index").orderBy("created_at").execute();
  return rows.map(toTip);
}

/** A new tip is announced to the newsletter (when automatic notifications are on). */
export async function createTip(store: ContentStore, input: NewTip): Promise<TipRecord> {
  const data = parseInput(newTipSchema, input);
  return writeContent(store, async ({ trx, store: inTransaction, audit }) => {
    const row = await trx
      .insertInto("tips_resources")
      .values({
        id: newId("tip"),
        category: data.category,
        title: data.title,
        description: data.description,
        url: data.url,
        type: data.type,
        order_index: data.orderIndex,
        created_at: new Date().toISOString(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await contentPublished(inTransaction, {
      type: "tip",
      id: row.id,
      title: row.title,
      summary: row.description,
      url: publishedPaths.tip(),
    });
    await audit({ action: "tip.created", entity: "tip", entityId: row.id, details: { title: row.title } });
    return toTip(row);
  });
}

/** Changes a tip at the revision the editor saw. */
export async function updateTip(store: ContentStore, id: string, changes: TipChanges): Promise<TipRecord> {
  const { revision, ...data } = parseInput(tipChangesSchema, changes);
  const saved = defined({
    category: data.category,
    title: data.title,
    description: data.description,
    url: data.url,
    type: data.type,
    order_index: data.orderIndex,
  });
  return writeContent(store, async ({ trx, audit }) => {
    const { row, before } = await saveAtRevision("tip", revision, {
      read: () => trx.selectFrom("tips_resources").selectAll().where("id", "=", id).executeTakeFirst(),
      holds: (current) => holdsValues(current, saved),
      write: () =>
        trx
          .updateTable("tips_resources")
          .set((eb) => ({ ...saved, revision: eb("revision", "+", 1) }))
          .where("id", "=", id)
          .where("revision", "=", revision)
          .returningAll()
          .executeTakeFirst(),
    });
    if (before) {
      const details = { changed: changedColumns(before, row, Object.keys(saved)) };
      await audit({ action: "tip.updated", entity: "tip", entityId: id, details });
    }
    return toTip(row);
  });
}

/** Deleting a tip within its notification's grace period cancels the email. */
export async function deleteTip(store: ContentStore, id: string): Promise<void> {
  await writeContent(store, async ({ trx, store: inTransaction, audit }) => {
    const row = await trx.deleteFrom("tips_resources").where("id", "=", id).returning("title").executeTakeFirst();
    if (!row) throw goneError("tip");
    await contentWithdrawn(inTransaction, { type: "tip", id });
    await audit({ action: "tip.deleted", entity: "tip", entityId: id, details: { title: row.title } });
  });
}
