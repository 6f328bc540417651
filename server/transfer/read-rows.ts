import { type Kysely, sql } from "kysely";
import type { DialectName } from "../db/connection.ts";
import type { Database } from "../db/schema.ts";
import type { TableSpec } from "./tables.ts";
import { encodeValue, ValueError } from "./values.ts";

/** Rows fetched per round trip while reading a table. */
const FETCH_ROWS = 1000;

/** Tables that exist in the database (an older schema may lack some). */
export async function existingTables(db: Kysely<Database>): Promise<Set<string>> {
  const tables = await db.introspection.getTables();
  return new Set(tables.map((found) => found.name));
}

/** The columns of `spec` that the table has in this database, in the spec's order. */
export async function existingColumns(db: Kysely<Database>, spec: TableSpec): Promise<string[]> {
  const tables = await db.introspection.getTables();
  const found = tables.find((candidate) => candidate.name === spec.name);
  const present = new Set(found?.columns.map((column) => column.name) ?? []);
  return Object.keys(spec.columns).filter((column) => present.has(column));
}

export async function countRows(db: Kysely<Database>, name: string): Promise<number> {
  const result = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(name)}`.execute(db);
  return Number(result.rows[0]?.n ?? 0);
}

/**
 * The rows of a table, encoded (values.ts), in batches, in the order of its key. Text
 * keys are compared byte by byte on PostgreSQL too (COLLATE "C", SQLite's order), so
 * both databases list the same rows in the same order. On PostgreSQL this must run
 * inside a transaction (a cursor lives in one).
 */
export async function* readRows(
  db: Kysely<Database>,
  dialect: DialectName,
  spec: TableSpec,
  columns: readonly string[],
): AsyncGenerator<unknown[][]> {
  const kinds = columns.map((column) => spec.columns[column]!);
  const order = sql.join(
    spec.key.map((column) =>
      spec.columns[column] === "text" && dialect === "postgres" ? sql`${sql.ref(column)} collate "C"` : sql.ref(column),
    ),
  );
  const select = sql`select ${sql.join(columns.map((column) => sql.ref(column)))} from ${sql.table(spec.name)} order by ${order}`;
  const encode = (row: Record<string, unknown>) =>
    columns.map((column, index) => {
      try {
        return encodeValue(kinds[index]!, row[column]);
      } catch (error) {
        if (error instanceof ValueError) throw new ValueError(`${spec.name}.${column}: ${error.message}`);
        throw error;
      }
    });

  if (dialect === "postgres") {
    const cursor = sql.id(`bastion_read_${spec.name.toLowerCase()}`);
    await sql`declare ${cursor} no scroll cursor for ${select}`.execute(db);
    try {
      while (true) {
        const { rows } = await sql<
          Record<string, unknown>
        >`fetch ${sql.raw(String(FETCH_ROWS))} from ${cursor}`.execute(db);
        if (rows.length === 0) break;
        yield rows.map(encode);
        if (rows.length < FETCH_ROWS) break;
      }
    } finally {
      await sql`close ${cursor}`.execute(db);
    }
    return;
  }

  // SQLite: keyset pages over the primary key (one statement per page, nothing held open).
  let after: unknown[] | undefined;
  while (true) {
    const keyTuple = sql`(${sql.join(spec.key.map((column) => sql.ref(column)))})`;
    const where = after ? sql`where ${keyTuple} > (${sql.join(after)})` : sql``;
    const { rows } = await sql<Record<string, unknown>>`select ${sql.join(
      columns.map((column) => sql.ref(column)),
    )} from ${sql.table(spec.name)} ${where} order by ${order} limit ${FETCH_ROWS}`.execute(db);
    if (rows.length === 0) break;
    yield rows.map(encode);
    if (rows.length < FETCH_ROWS) break;
    const last = rows[rows.length - 1]!;
    after = spec.key.map((column) => last[column]);
  }
}
