import { sql } from "kysely";
import type { DatabaseHandle } from "../../server/db/connection.ts";

/**
 * Every row of every table of the database (ours, Better Auth's and the migration
 * bookkeeping), for "nothing changed" assertions: compare a snapshot taken before some
 * requests with one taken after. Rows are serialised and sorted, so the comparison does
 * not depend on the order the database returns them in.
 */
export type DatabaseSnapshot = Record<string, { count: number; rows: string[] }>;

export async function listTables(database: DatabaseHandle): Promise<string[]> {
  if (database.dialect === "sqlite") {
    const result = await sql<{ name: string }>`
      select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name
    `.execute(database.db);
    return result.rows.map((row) => row.name);
  }
  const result = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name
  `.execute(database.db);
  return result.rows.map((row) => row.name);
}

export async function snapshotDatabase(database: DatabaseHandle): Promise<DatabaseSnapshot> {
  const snapshot: DatabaseSnapshot = {};
  for (const table of await listTables(database)) {
    const result = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(database.db);
    const rows = result.rows
      .map((row) => JSON.stringify(row, (_key, value) => (value instanceof Date ? value.toISOString() : value)))
      .sort();
    snapshot[table] = { count: rows.length, rows };
  }
  return snapshot;
}

/** The row counts alone, for a readable failure message. */
export function rowCounts(snapshot: DatabaseSnapshot): Record<string, number> {
  return Object.fromEntries(Object.entries(snapshot).map(([table, { count }]) => [table, count]));
}
