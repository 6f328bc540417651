import type { Kysely, Selectable } from "kysely";
import { z } from "zod";
import { type Database, RESOURCE_CATEGORIES, type ResourcesTable } from "../db/schema.ts";
import { NotFound } from "../errors.ts";
import { newId } from "../ids.ts";
import { parseInput } from "../validation.ts";
import { contentPublished, contentWithdrawn, publishedPaths } from "./publishing.ts";
import { type ContentStore, changed, requiredLink } from "./store.ts";

/** The resources table (the library on /resources): the only module that writes it. */

export interface ResourceRecord {
  id: string;
  name: string;
  description: string;
  url: string;
  category: (typeof RESOURCE_CATEGORIES)[number];
  featured: boolean;
  orderIndex: number;
  createdAt: string;
}

const fields = {
  name: z.string({ error: "Name is required" }).trim().min(1, "Name is required").max(200),
  description: z.string().trim().max(2000),
  url: requiredLink,
  category: z.enum(RESOURCE_CATEGORIES, { error: "Choose a category" }),
  featured: z.boolean(),
  // Spec §5: for resources an invalid order value becomes 0.
  orderIndex: z.unknown().transform((value) => {
    const number = typeof value === "string" ? Number.parseInt(value, 10) : value;
    return typeof number === "number" && Number.isInteger(number) && number >= 0 ? number : 0;
  }),
};

const newResourceSchema = z.object({
  name: fields.name,
  description: fields.description.default(""),
  url: fields.url,
  category: fields.category.default("Learning"),
  featured: fields.featured.default(false),
});

const resourceChangesSchema = z.object({
  name: fields.name.optional(),
  description: fields.description.optional(),
  url: fields.url.optional(),
  category: fields.category.optional(),
  featured: fields.featured.optional(),
  orderIndex: fields.orderIndex.optional(),
});

export type NewResource = z.input<typeof newResourceSchema>;
export type ResourceChanges = z.input<typeof resourceChangesSchema>;

function toResource(row: Selectable<ResourcesTable>): ResourceRecord {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    url: row.url,
    category: row.category,
    featured: row.featured,
    orderIndex: row.order_index,
    createdAt: row.created_at,
  };
}

export async function listResources(db: Kysely<Database>): Promise<ResourceRecord[]> {
  const rows = await db.selectFrom("resources").selectAll().orderBy("order_index").orderBy("created_at").execute();
  return rows.map(toResource);
}

/** New resources get order_index = the current count (spec §4). */
export async function createResource(store: ContentStore, input: NewResource): Promise<ResourceRecord> {
  const data = parseInput(newResourceSchema, input);
  const row = await store.db.transaction().execute(async (trx) => {
    const count = await trx
      .selectFrom("resources")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    const created = await trx
      .insertInto("resources")
      .values({
        id: newId("resource"),
        name: data.name,
        description: data.description,
        url: data.url,
        category: data.category,
        featured: data.featured,
        order_index: Number(count.n),
        created_at: new Date().toISOString(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await contentPublished(
      { ...store, db: trx },
      {
        type: "resource",
        id: created.id,
        title: created.name,
        summary: created.description,
        url: publishedPaths.resource(),
      },
    );
    return created;
  });
  await changed(store);
  return toResource(row);
}

export async function updateResource(
  store: ContentStore,
  id: string,
  changes: ResourceChanges,
): Promise<ResourceRecord> {
  const data = parseInput(resourceChangesSchema, changes);
  const row = await store.db
    .updateTable("resources")
    .set({
      ...(data.name !== undefined ? { name: data.name } : {}),
      ...(data.description !== undefined ? { description: data.description } : {}),
      ...(data.url !== undefined ? { url: data.url } : {}),
      ...(data.category !== undefined ? { category: data.category } : {}),
      ...(data.featured !== undefined ? { featured: data.featured } : {}),
      ...("orderIndex" in changes ? { order_index: data.orderIndex ?? 0 } : {}),
    })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new NotFound("This resource no longer exists.");
  await changed(store);
  return toResource(row);
}

export async function deleteResource(store: ContentStore, id: string): Promise<void> {
  const result = await store.db.deleteFrom("resources").where("id", "=", id).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new NotFound("This resource no longer exists.");
  await contentWithdrawn(store, { type: "resource", id });
  await changed(store);
}
