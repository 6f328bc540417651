import { existsSync } from "node:fs";
import type { Kysely, Transaction } from "kysely";
import type { DatabaseHandle, DialectName } from "../db/connection.ts";
import { deriveActivePeriods } from "../db/migrations/0008-newsletter-active-periods.ts";
import type { Database } from "../db/schema.ts";
import { DATA_FORMAT, DATA_FORMAT_VERSION, readDataFile, type TableDump, writeDataFile } from "./data-file.ts";
import { clearTables, describeData, insertFileRows, tablesWithData } from "./load.ts";
import { type Progress, silentProgress } from "./progress.ts";
import { countRows, existingColumns, readRows } from "./read-rows.ts";
import { applicationVersion, appliedSchemaVersion, pendingMigrations } from "./schema-version.ts";
import { EXPORTED_TABLES, type TableSpec } from "./tables.ts";

/** export and import: the site's data as one JSON Lines file (docs/data-format.md). */

/** A refusal to act, with the message to show as it is (no stack). */
export class TransferRefused extends Error {
  override name = "TransferRefused";
}

/**
 * Runs `work` on a snapshot of the database: on PostgreSQL a REPEATABLE READ, READ ONLY
 * transaction (every query sees the same committed state while the server keeps
 * writing); on SQLite a transaction, whose first read fixes what it sees (WAL).
 */
export async function inSnapshot<T>(
  handle: DatabaseHandle,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  const builder = handle.db.transaction();
  if (handle.dialect === "postgres")
    return builder.setIsolationLevel("repeatable read").setAccessMode("read only").execute(work);
  return builder.execute(work);
}

/** The tables to write, each counted and read in the caller's snapshot. */
export async function* dumpTables(
  db: Kysely<Database>,
  dialect: DialectName,
  specs: readonly TableSpec[],
  progress: Progress,
  present: Set<string>,
): AsyncGenerator<TableDump> {
  for (const spec of specs) {
    if (!present.has(spec.name)) continue;
    progress.step(`Reading ${spec.name}`);
    const columns = await existingColumns(db, spec);
    const count = await countRows(db, spec.name);
    yield { spec, columns, count, batches: readRows(db, dialect, spec, columns) };
  }
}

async function refusePending(handle: DatabaseHandle): Promise<void> {
  const pending = await pendingMigrations(handle.db, handle.dialect);
  if (pending.length > 0) {
    throw new TransferRefused(
      `The database has ${pending.length} pending migration(s) (${pending.join(", ")}): run \`npm run cli -- db:migrate\` first.`,
    );
  }
}

export async function exportToFile(
  handle: DatabaseHandle,
  file: string,
  progress: Progress = silentProgress,
): Promise<{ tables: number; rows: number }> {
  if (existsSync(file)) throw new TransferRefused(`${file} already exists: choose another name or remove it first.`);
  // A blank database is most often the wrong DATA_DIR or DATABASE_URL: migrating it, as
  // the pending-migrations message would advise, only makes an empty site to export.
  if (!(await appliedSchemaVersion(handle.db))) {
    throw new TransferRefused("The database has no schema yet: there is nothing to export.");
  }
  await refusePending(handle);
  return inSnapshot(handle, async (trx) => {
    const schemaVersion = (await appliedSchemaVersion(trx)) as string;
    const header = {
      format: DATA_FORMAT,
      version: DATA_FORMAT_VERSION,
      exportedAt: new Date().toISOString(),
      appVersion: applicationVersion(),
      schemaVersion,
    } as const;
    const present = new Set(EXPORTED_TABLES.map((spec) => spec.name));
    return writeDataFile(file, header, dumpTables(trx, handle.dialect, EXPORTED_TABLES, progress, present), (_, rows) =>
      progress.rows(rows),
    );
  });
}

/**
 * Reads the whole export as an import would, touching no database: a file of another
 * format or version, or a damaged one, is refused before anything changes.
 */
export async function checkImportFile(file: string): Promise<void> {
  if (!existsSync(file)) throw new TransferRefused(`${file} does not exist.`);
  await readDataFile(file, { allowed: (spec) => spec.exported });
}

/**
 * Loads an export into this database in one transaction: refused when the database
 * already holds data unless `force`, which replaces every exported table. A fault in
 * the file (format, version, a bad value, a truncated end) rolls everything back.
 */
export async function importFromFile(
  handle: DatabaseHandle,
  file: string,
  options: { force: boolean },
  progress: Progress = silentProgress,
): Promise<{ tables: number; rows: number }> {
  if (!existsSync(file)) throw new TransferRefused(`${file} does not exist.`);
  await refusePending(handle);
  const data = await tablesWithData(handle.db);
  if (data.size > 0 && !options.force) {
    throw new TransferRefused(
      `The database already holds data (${describeData(data)}). Import into an empty database, or add --force to replace its content.`,
    );
  }
  let tables = 0;
  let rows = 0;
  await handle.db.transaction().execute(async (trx) => {
    await clearTables(trx, EXPORTED_TABLES);
    const read = await readDataFile(file, {
      allowed: (spec) => spec.exported,
      onTable: (table) => {
        tables++;
        progress.step(`Importing ${table.spec.name}`);
      },
      onRows: async (table, batch, places) => {
        await insertFileRows(trx, file, table, batch, places);
        rows += batch.length;
        progress.rows(batch.length);
      },
    });
    if (!read.tables.has("newsletter_active_periods")) await deriveActivePeriods(trx);
  });
  return { tables, rows };
}
