import type { Kysely, Selectable } from "kysely";
import { z } from "zod";
import { type Database, TIP_CATEGORIES, TIP_TYPES, type TipsResourcesTable } from "../db/schema.ts";
import { NotFound } from "../errors.ts";
import { newId } from "../ids.ts";
import { parseInput } from "../validation.ts";
import { contentPublished, contentWithdrawn, publishedPaths } from "./publishing.ts";
import { type ContentStore, changed, optionalLink, orderIndex } from "./store.ts";

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
}

const fields = {
  category: z.enum(TIP_CATEGORIES, { error: "Choose a category" }),
  title: z.string({ error: "Title is required" }).trim().min(1, "Title is required").max(200),
  description: z.string().trim().max(2000),
  // Saved as null when empty (spec §3).
  url: optionalLink.nullish().transform((value) => (value ? value : null)),
  type: z.enum(TIP_TYPES, { error: "Choose a type" }),
  orderIndex,
};

const newTipSchema = z.object({
  ...fields,
  category: fields.category.default("Tenable"),
  description: fields.description.default(""),
  type: fields.type.default("external"),
  orderIndex: fields.orderIndex.default(0),
});

const tipChangesSchema = z.object({
  category: fields.category.optional(),
  title: fields.title.optional(),
  description: fields.description.optional(),
  url: fields.url.optional(),
  type: fields.type.optional(),
  orderIndex: fields.orderIndex.optional(),
});

export type NewTip = z.input<typeof newTipSchema>;
export type TipChanges = z.input<typeof tipChangesSchema>;

function toTip(row: Selectable<TipsResourcesTable>): TipRecord {
  return {
    id: row.id,
    category: row.category,
    title: row.title,
    description: row.description,
    url: row.url,
    type: row.type,
    orderIndex: row.order_index,
    createdAt: row.created_at,
  };
}

export async function listTips(db: Kysely<Database>): Promise<TipRecord[]> {
  const rows = await db.selectFrom("tips_resources").selectAll().orderBy("order_index").orderBy("created_at").execute();
  return rows.map(toTip);
}

export async function createTip(store: ContentStore, input: NewTip): Promise<TipRecord> {
  const data = parseInput(newTipSchema, input);
  const row = await store.db
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
  await contentPublished(store, {
    type: "tip",
    id: row.id,
    title: row.title,
    summary: row.description,
    url: publishedPaths.tip(),
  });
  await changed(store);
  return toTip(row);
}

export async function updateTip(store: ContentStore, id: string, changes: TipChanges): Promise<TipRecord> {
  const data = parseInput(tipChangesSchema, changes);
  const row = await store.db
    .updateTable("tips_resources")
    .set({
      ...(data.category !== undefined ? { category: data.category } : {}),
      ...(data.title !== undefined ? { title: data.title } : {}),
      ...(data.description !== undefined ? { description: data.description } : {}),
      ...(data.url !== undefined ? { url: data.url } : {}),
      ...(data.type !== undefined ? { type: data.type } : {}),
      ...(data.orderIndex !== undefined ? { order_index: data.orderIndex } : {}),
    })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new NotFound("This tip no longer exists.");
  await changed(store);
  return toTip(row);
}

export async function deleteTip(store: ContentStore, id: string): Promise<void> {
  const result = await store.db.deleteFrom("tips_resources").where("id", "=", id).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new NotFound("This tip no longer exists.");
  await contentWithdrawn(store, { type: "tip", id });
  await changed(store);
}
