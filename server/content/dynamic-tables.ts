import type { Generated, Kysely } from "kysely";
import type { Database } from "../db/schema.ts";

/**
 * The content tables that share a shape (the items edited one by one, the About page's
 * ordered lists, the tables of entries) queried by a table name chosen at run time.
 * Kysely cannot type a query over a union of tables, so these queries see the columns
 * every such table has with their types and any other column as `unknown`; callers map
 * the rows back to their own table's type.
 */
interface SharedRow {
  id: string;
  revision: Generated<number>;
  order_index: number;
  [column: string]: unknown;
}

export type DynamicTables = Record<string, SharedRow>;

/** The same database or transaction, seen without the per-table types. */
export function dynamicTables(db: Kysely<Database>): Kysely<DynamicTables> {
  return db as unknown as Kysely<DynamicTables>;
}
