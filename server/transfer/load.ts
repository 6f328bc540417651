import { type Kysely, sql } from "kysely";
import type { Database } from "../db/schema.ts";
import { DataFileError, type RowPlace, type TableStart } from "./data-file.ts";
import { countRows, existingTables } from "./read-rows.ts";
import { TABLES, type TableSpec } from "./tables.ts";

/** Parameters per insert statement stay well below SQLite's and PostgreSQL's limits. */
const MAX_PARAMETERS = 30_000;
/** Rows per insert statement. */
export const INSERT_ROWS = 500;

/**
 * The tables that hold the site's data, with their row counts: every exported table
 * with rows, except the default rows seeded at every start (those alone are a new
 * site). Sessions, tokens and queues are not data the site would lose.
 */
export async function tablesWithData(db: Kysely<Database>): Promise<Map<string, number>> {
  const present = await existingTables(db);
  const found = new Map<string, number>();
  for (const spec of TABLES) {
    if (!spec.exported || spec.seeded || !present.has(spec.name)) continue;
    const count = await countRows(db, spec.name);
    if (count > 0) found.set(spec.name, count);
  }
  return found;
}

/** "12 rows in chapters, 3 in user" for a refusal's message. */
export function describeData(tables: Map<string, number>): string {
  const parts = [...tables]
    .slice(0, 4)
    .map(([name, count], index) => (index === 0 ? `${count} rows in ${name}` : `${count} in ${name}`));
  return parts.join(", ") + (tables.size > 4 ? ", …" : "");
}

/** Empties the tables, those referencing others first (inside the caller's transaction). */
export async function clearTables(db: Kysely<Database>, specs: readonly TableSpec[]): Promise<void> {
  for (const spec of [...specs].reverse()) {
    await sql`delete from ${sql.table(spec.name)}`.execute(db);
  }
}

/** Inserts decoded rows (data-file.ts) in multi-row statements. */
export async function insertRows(
  db: Kysely<Database>,
  table: string,
  columns: readonly string[],
  rows: readonly unknown[][],
): Promise<void> {
  const perStatement = Math.max(1, Math.min(INSERT_ROWS, Math.floor(MAX_PARAMETERS / columns.length)));
  const columnList = sql.join(columns.map((column) => sql.ref(column)));
  for (let start = 0; start < rows.length; start += perStatement) {
    const values = rows.slice(start, start + perStatement).map((row) => sql`(${sql.join(row)})`);
    await sql`insert into ${sql.table(table)} (${columnList}) values ${sql.join(values)}`.execute(db);
  }
}

/**
 * Whether the database refused a value itself: a constraint (a duplicate key, a missing
 * referenced row, a CHECK, NOT NULL) or a value its column cannot hold. Anything else
 * (a lost connection) is no fault of the file.
 */
function isRefusal(error: unknown): boolean {
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  if (typeof errcode === "number") return (errcode & 0xff) === 19 || (errcode & 0xff) === 20;
  return typeof code === "string" && /^2[23]/.test(code);
}

/**
 * Inserts a batch read from a data file (inside the caller's transaction). A row the
 * database refuses is named by its line, as a fault of the file's own checks is: the
 * batch is undone to a savepoint and tried again row by row until that row is found.
 */
export async function insertFileRows(
  db: Kysely<Database>,
  file: string,
  table: TableStart,
  rows: readonly unknown[][],
  places: readonly RowPlace[],
): Promise<void> {
  await sql`savepoint bastion_rows`.execute(db);
  try {
    await insertRows(db, table.spec.name, table.columns, rows);
  } catch (error) {
    if (!isRefusal(error)) throw error;
    await sql`rollback to savepoint bastion_rows`.execute(db);
    for (const [index, row] of rows.entries()) {
      try {
        await insertRows(db, table.spec.name, table.columns, [row]);
      } catch (rowError) {
        if (!isRefusal(rowError)) throw rowError;
        const { line, row: number } = places[index]!;
        throw new DataFileError(
          `${file}, line ${line}: table "${table.spec.name}", row ${number}: the database refused it (${(rowError as Error).message})`,
        );
      }
    }
    throw error;
  }
  await sql`release savepoint bastion_rows`.execute(db);
}
