import type { Kysely, Selectable } from "kysely";
import { type Database, TIP_CATEGORIES, type TIP_TYPES, type TipsResourcesTable } from "../db/schema.ts";
import { newId } from "../ids.ts";
import { parseInput } from "../validation.ts";
import { deleteRow, type EditedTable, updateRowAtRevision } from "./edited-rows.ts";
import { publishedPaths } from "./paths.ts";
import { contentPublished, contentWithdrawn } from "./publishing.ts";
import { type ContentStore, writeContent } from "./store.ts";
import { type NewTip, newTipSchema, type TipChanges, tipChangesSchema } from "./tip-input.ts";

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

/**
 * The tips, grouped by category in the spec's order (Tenable, AWS, Security Tips,
 * Career), each group by order_index; or only those of `category`.
 */
export async function listTips(
  db: Kysely<Database>,
  filter: { category?: TipRecord["category"] | null } = {},
): Promise<TipRecord[]> {
  let query = db.selectFrom("tips_resources").selectAll();
  if (filter.category) query = query.where("category", "=", filter.category);
  const rows = await query.orderBy("order_index").orderBy("created_at").orderBy("id").execute();
  const rank = (row: TipRow) => TIP_CATEGORIES.indexOf(row.category);
  return rows.sort((a, b) => rank(a) - rank(b)).map(toTip);
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

const TIPS: EditedTable = { table: "tips_resources", thing: "tip", entity: "tip", label: "title" };

/** Changes a tip at the revision the editor saw. */
export async function updateTip(store: ContentStore, id: string, changes: TipChanges): Promise<TipRecord> {
  const { revision, ...data } = parseInput(tipChangesSchema, changes);
  const row = await updateRowAtRevision<TipRow>(store, TIPS, id, revision, {
    category: data.category,
    title: data.title,
    description: data.description,
    url: data.url,
    type: data.type,
    order_index: data.orderIndex,
  });
  return toTip(row);
}

/** Deleting a tip within its notification's grace period cancels the email. */
export async function deleteTip(store: ContentStore, id: string): Promise<void> {
  await deleteRow(store, TIPS, id, (write) => contentWithdrawn(write.store, { type: "tip", id }));
}
