import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { Kysely } from "kysely";
import { type DatabaseHandle, openDatabase } from "../db/connection.ts";
import { migrateToLatest } from "../db/migrate.ts";
import type { Database } from "../db/schema.ts";
import { imageTypeOfName } from "../media/image-type.ts";
import { createMediaStorage } from "../media/storage/index.ts";
import { readDataFile } from "../transfer/data-file.ts";
import { clearTables, describeData, insertRows, tablesWithData } from "../transfer/load.ts";
import { type Progress, silentProgress } from "../transfer/progress.ts";
import { existingColumns, existingTables, readRows } from "../transfer/read-rows.ts";
import {
  appliedSchemaVersion,
  latestSchemaVersion,
  migrateTo,
  newerSchemaMessage,
} from "../transfer/schema-version.ts";
import { TABLES } from "../transfer/tables.ts";
import { TransferRefused } from "../transfer/transfer.ts";
import { decodeValue } from "../transfer/values.ts";
import { ArchiveError, DATA_ENTRY, type Manifest, mediaEntries, SQLITE_ENTRY, unpackArchive } from "./archive.ts";
import type { BackupConfig } from "./backup.ts";
import { replaceSchema } from "./replace-schema.ts";

/**
 * Restores a backup into this installation's database and media storage. Everything
 * is checked before anything is touched: the archive's checksums, its row counts, its
 * schema version, its media names, and that the target is empty (or `force`, which
 * also replaces a schema newer than the backup's: replace-schema.ts). The
 * backup's media files are put first, the database is then loaded in one transaction,
 * and only then are the installation's other media files deleted: a failure at any step
 * leaves either the database as it was with its files (some of the backup's perhaps
 * beside them), or the new one with all of its files. A backup of either database
 * restores into either database.
 */
export async function restoreBackup(
  config: BackupConfig,
  handle: DatabaseHandle,
  file: string,
  options: { force: boolean; progress?: Progress },
): Promise<{ manifest: Manifest; tables: number; rows: number; files: number; bytes: number }> {
  const progress = options.progress ?? silentProgress;
  if (!existsSync(file)) throw new TransferRefused(`${file} does not exist.`);
  const staging = await mkdtemp(path.join(tmpdir(), "bastion-restore-"));
  const storage = createMediaStorage(config);
  try {
    progress.step(`Checking ${path.basename(file)}`);
    const manifest = await unpackArchive(file, staging);
    const newer = newerSchemaMessage("backup", manifest.schemaVersion);
    if (newer) throw new ArchiveError(newer);
    await checkCounts(staging, manifest);

    const applied = await appliedSchemaVersion(handle.db);
    // Migrated since the backup (an upgrade to go back from, perhaps by a newer release).
    const newerSchema = applied !== null && applied > manifest.schemaVersion;
    if (newerSchema && !options.force) {
      throw new TransferRefused(
        `This database is at schema ${applied}, newer than the backup's ${manifest.schemaVersion}. Add --force to replace it, schema and all, with the backup (the way back from an upgrade), or restore into a blank database.`,
      );
    }
    const data = applied ? await tablesWithData(handle.db) : new Map<string, number>();
    const existingMedia = await storage.list();
    if ((data.size > 0 || existingMedia.length > 0) && !options.force) {
      const what = [
        data.size > 0 ? `the database holds data (${describeData(data)})` : "",
        existingMedia.length > 0 ? `${existingMedia.length} media files are stored` : "",
      ].filter(Boolean);
      throw new TransferRefused(
        `This installation is not empty: ${what.join(" and ")}. Restore into an empty one, or add --force to replace everything.`,
      );
    }

    progress.step("Restoring media files");
    const media = mediaEntries(manifest, staging);
    let bytes = 0;
    const stored = new Set(existingMedia.map((file) => file.path));
    for (const [name, source] of media) {
      const body = await readFile(source);
      // A name already stored (a backup restored over its own site) is kept when its bytes
      // are the same; storage never overwrites a name, so other bytes replace it.
      const same = stored.has(name) && (await storage.get(name))?.body.equals(body);
      if (!same) {
        if (stored.has(name)) await storage.delete([name]);
        await storage.put(name, body, imageTypeOfName(name)?.mime ?? "application/octet-stream");
      }
      bytes += body.length;
      progress.file(body.length);
    }

    let rows = 0;
    const onRows = (count: number) => {
      rows += count;
      progress.rows(count);
    };
    const load = async (db: Kysely<Database>) => {
      const present = await existingTables(db);
      await clearTables(
        db,
        TABLES.filter((spec) => present.has(spec.name)),
      );
      if (manifest.database === "sqlite") await loadFromSqlite(db, path.join(staging, SQLITE_ENTRY), progress, onRows);
      else await loadFromData(db, path.join(staging, DATA_ENTRY), progress, onRows);
    };
    if (newerSchema) {
      await replaceSchema(handle, manifest.schemaVersion, load);
    } else {
      await migrateTo(handle.db, handle.dialect, manifest.schemaVersion);
      await handle.db.transaction().execute(load);
    }

    const restored = new Set(media.map(([name]) => name));
    const replaced = existingMedia.map((stored) => stored.path).filter((name) => !restored.has(name));
    if (replaced.length > 0) await storage.delete(replaced);
    if (manifest.schemaVersion !== latestSchemaVersion()) await migrateToLatest(handle.db, handle.dialect);
    return { manifest, tables: Object.keys(manifest.tables).length, rows, files: media.length, bytes };
  } finally {
    storage.close();
    await rm(staging, { recursive: true, force: true });
  }
}

/** The rows in the archive's database match the manifest's counts, table by table. */
async function checkCounts(staging: string, manifest: Manifest): Promise<void> {
  const found = new Map<string, number>();
  if (manifest.database === "sqlite") {
    const copy = new DatabaseSync(path.join(staging, SQLITE_ENTRY), { readOnly: true });
    try {
      for (const name of Object.keys(manifest.tables)) {
        const row = copy.prepare(`select count(*) as n from "${name.replaceAll('"', '""')}"`).get() as { n: number };
        found.set(name, Number(row.n));
      }
    } catch (error) {
      throw new ArchiveError(`The backup's database cannot be read: ${(error as Error).message}`);
    } finally {
      copy.close();
    }
  } else {
    const { tables } = await readDataFile(path.join(staging, DATA_ENTRY), { allowed: () => true });
    for (const [name, count] of tables) found.set(name, count);
  }
  for (const [name, expected] of Object.entries(manifest.tables)) {
    if (found.get(name) !== expected) {
      throw new ArchiveError(
        `The backup is inconsistent: its manifest counts ${expected} rows in ${name}, its database holds ${found.get(name) ?? "no such table"}.`,
      );
    }
  }
}

async function loadFromSqlite(
  trx: Kysely<Database>,
  file: string,
  progress: Progress,
  onRows: (count: number) => void,
): Promise<void> {
  const source = openDatabase({ kind: "sqlite", file });
  try {
    const present = await existingTables(source.db);
    for (const spec of TABLES) {
      if (!present.has(spec.name)) continue;
      progress.step(`Restoring ${spec.name}`);
      const columns = await existingColumns(source.db, spec);
      const kinds = columns.map((column) => spec.columns[column]!);
      for await (const batch of readRows(source.db, "sqlite", spec, columns)) {
        const decoded = batch.map((row) => row.map((value, index) => decodeValue(kinds[index]!, value)));
        await insertRows(trx, spec.name, columns, decoded);
        onRows(batch.length);
      }
    }
  } finally {
    await source.close();
  }
}

async function loadFromData(
  trx: Kysely<Database>,
  file: string,
  progress: Progress,
  onRows: (count: number) => void,
): Promise<void> {
  await readDataFile(file, {
    allowed: () => true,
    onTable: (table) => progress.step(`Restoring ${table.spec.name}`),
    onRows: async (table, batch) => {
      await insertRows(trx, table.spec.name, table.columns, batch);
      onRows(batch.length);
    },
  });
}
