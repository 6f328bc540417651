import type { Kysely, Selectable } from "kysely";
import type { Database, RESOURCE_CATEGORIES, ResourcesTable } from "../db/schema.ts";
import { newId } from "../ids.ts";
import { parseInput } from "../validation.ts";
import { deleteRow, type EditedTable, updateRowAtRevision } from "./edited-rows.ts";
import { publishedPaths } from "./paths.ts";
import { contentPublished, contentWithdrawn } from "./publishing.ts";
import { type NewResource, newResourceSchema, type ResourceChanges, resourceChangesSchema } from "./resource-input.ts";
import { type ContentStore, writeContent } from "./store.ts";

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
  revision: number;
}

type ResourceRow = Selectable<ResourcesTable>;

function toResource(row: ResourceRow): ResourceRecord {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    url: row.url,
    category: row.category,
    featured: row.featured,
    orderIndex: row.order_index,
    createdAt: row.created_at,
    revision: row.revision,
  };
}

/** The library by order_index, or only the resources of `category`. */
export async function listResources(
  db: Kysely<Database>,
  filter: { category?: ResourceRecord["category"] | null } = {},
): Promise<ResourceRecord[]> {
  let query = db.selectFrom("resources").selectAll();
  if (filter.category) query = query.where("category", "=", filter.category);
  const rows = await query.orderBy("order_index").orderBy("created_at").orderBy("id").execute();
  return rows.map(toResource);
}

/**
 * New resources get order_index = the current count (the spec) and are announced to the
 * newsletter (when automatic notifications are on).
 */
export async function createResource(store: ContentStore, input: NewResource): Promise<ResourceRecord> {
  const data = parseInput(newResourceSchema, input);
  return writeContent(store, async ({ trx, store: inTransaction, audit }) => {
    const count = await trx
      .selectFrom("resources")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    const row = await trx
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
    await contentPublished(inTransaction, {
      type: "resource",
      id: row.id,
      title: row.name,
      summary: row.description,
      url: publishedPaths.resource(),
    });
    await audit({ action: "resource.created", entity: "resource", entityId: row.id, details: { name: row.name } });
    return toResource(row);
  });
}

const RESOURCES: EditedTable = { table: "resources", thing: "resource", entity: "resource", label: "name" };

/** Changes a resource at the revision the editor saw. */
export async function updateResource(
  store: ContentStore,
  id: string,
  changes: ResourceChanges,
): Promise<ResourceRecord> {
  const { revision, ...data } = parseInput(resourceChangesSchema, changes);
  const row = await updateRowAtRevision<ResourceRow>(store, RESOURCES, id, revision, {
    name: data.name,
    description: data.description,
    url: data.url,
    category: data.category,
    featured: data.featured,
    order_index: data.orderIndex,
  });
  return toResource(row);
}

/** Deleting a resource within its notification's grace period cancels the email. */
export async function deleteResource(store: ContentStore, id: string): Promise<void> {
  await deleteRow(store, RESOURCES, id, (write) => contentWithdrawn(write.store, { type: "resource", id }));
}
