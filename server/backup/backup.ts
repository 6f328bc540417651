import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { sql } from "kysely";
import type { Config } from "../config.ts";
import type { DatabaseHandle } from "../db/connection.ts";
import { createMediaStorage } from "../media/storage/index.ts";
import { DATA_FORMAT, DATA_FORMAT_VERSION, writeDataFile } from "../transfer/data-file.ts";
import { type Progress, silentProgress } from "../transfer/progress.ts";
import { existingTables } from "../transfer/read-rows.ts";
import { applicationVersion, appliedSchemaVersion } from "../transfer/schema-version.ts";
import { TABLES } from "../transfer/tables.ts";
import { dumpTables, inSnapshot, TransferRefused } from "../transfer/transfer.ts";
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  DATA_ENTRY,
  describeFiles,
  type Manifest,
  packArchive,
  SQLITE_ENTRY,
} from "./archive.ts";

export type BackupConfig = Pick<Config, "dataDir" | "s3" | "publicOrigin" | "database">;

const NO_SCHEMA_MESSAGE = "The database has no schema yet: there is nothing to back up.";
/** The staging folder of a backup under way, beside its archive. */
const STAGING_PREFIX = ".bastion-backup-";
/**
 * A backup's staging folder or unfinished archive (packArchive's `.partial`) untouched
 * this long was left by a process that stopped mid-backup (killed at the end of its
 * stop timeout, say): each holds up to a full copy of the media, so it is removed.
 */
const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;

export interface BackupResult {
  file: string;
  manifest: Manifest;
  /** Size of the archive. */
  bytes: number;
  /** What unfinished backups had left beside it, removed first (removeAbandonedWork). */
  leftoversRemoved: string[];
}

export function backupDirectory(config: Pick<Config, "dataDir">): string {
  return path.join(config.dataDir, "backups");
}

/** `bastion-<prefix>2026-11-24T01-02-03-456Z.tar.gz`: names sort in time order. */
export function backupFileName(prefix = "", at = new Date()): string {
  return `bastion-${prefix}${at.toISOString().replace(/[:.]/g, "-")}.tar.gz`;
}

/**
 * An online, consistent backup while the server runs: the database as one snapshot
 * (SQLite: VACUUM INTO a new file; PostgreSQL: every table read in one REPEATABLE READ,
 * READ ONLY transaction), then every media file through the storage driver (local or
 * S3), packed with a manifest into one .tar.gz. Media files are read after the
 * snapshot: files are never changed once stored, so every row of the snapshot finds
 * its file unless it was deleted in between.
 */
export async function createBackup(
  config: BackupConfig,
  handle: DatabaseHandle,
  options: { file?: string; progress?: Progress } = {},
): Promise<BackupResult> {
  const progress = options.progress ?? silentProgress;
  const target = path.resolve(options.file ?? path.join(backupDirectory(config), backupFileName()));
  if (existsSync(target))
    throw new TransferRefused(`${target} already exists: choose another name or remove it first.`);
  if (!(await appliedSchemaVersion(handle.db))) throw new TransferRefused(NO_SCHEMA_MESSAGE);
  await mkdir(path.dirname(target), { recursive: true });
  const leftoversRemoved = await removeAbandonedWork(path.dirname(target));
  const staging = await mkdtemp(path.join(path.dirname(target), STAGING_PREFIX));
  try {
    await mkdir(path.join(staging, "database"));
    const createdAt = new Date().toISOString();
    const { schemaVersion, tables } =
      handle.dialect === "sqlite"
        ? await copySqlite(handle, path.join(staging, SQLITE_ENTRY), progress)
        : await dumpPostgres(handle, path.join(staging, DATA_ENTRY), createdAt, progress);
    const media = await copyMedia(config, path.join(staging, "media"), progress);
    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_FORMAT_VERSION,
      appVersion: applicationVersion(),
      schemaVersion,
      database: handle.dialect,
      createdAt,
      tables,
      media,
      files: await describeFiles(staging),
    };
    progress.step(`Writing ${path.basename(target)}`);
    const bytes = await packArchive(staging, manifest, target);
    return { file: target, manifest, bytes, leftoversRemoved };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Removes what backups that never finished left in `directory`; returns the names removed. */
export async function removeAbandonedWork(directory: string, now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await readdir(directory)) {
    if (!name.startsWith(STAGING_PREFIX) && !/^bastion-.+\.tar\.gz\.partial$/.test(name)) continue;
    const entry = path.join(directory, name);
    const modified = await stat(entry).then(
      (found) => found.mtimeMs,
      () => now,
    );
    if (now - modified < ABANDONED_AFTER_MS) continue;
    await rm(entry, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

async function copySqlite(handle: DatabaseHandle, file: string, progress: Progress) {
  progress.step("Copying the SQLite database");
  // VACUUM INTO writes a consistent, compact copy from one read transaction.
  await sql`vacuum into ${file}`.execute(handle.db);
  // Counted from the copy itself, read-only, so the file is left exactly as written.
  const copy = new DatabaseSync(file, { readOnly: true });
  try {
    const version = copy.prepare("select name from kysely_migration order by name desc limit 1").get() as
      | { name: string }
      | undefined;
    if (!version) throw new TransferRefused(NO_SCHEMA_MESSAGE);
    const present = new Set(
      (copy.prepare("select name from sqlite_master where type = 'table'").all() as { name: string }[]).map(
        (row) => row.name,
      ),
    );
    const tables: Record<string, number> = {};
    for (const spec of TABLES) {
      if (!present.has(spec.name)) continue;
      const row = copy.prepare(`select count(*) as n from "${spec.name}"`).get() as { n: number };
      tables[spec.name] = Number(row.n);
      progress.rows(tables[spec.name]!);
    }
    return { schemaVersion: version.name, tables };
  } finally {
    copy.close();
  }
}

async function dumpPostgres(handle: DatabaseHandle, file: string, createdAt: string, progress: Progress) {
  return inSnapshot(handle, async (trx) => {
    const schemaVersion = await appliedSchemaVersion(trx);
    if (!schemaVersion) throw new TransferRefused(NO_SCHEMA_MESSAGE);
    const present = await existingTables(trx);
    const tables: Record<string, number> = {};
    const header = {
      format: DATA_FORMAT,
      version: DATA_FORMAT_VERSION,
      exportedAt: createdAt,
      appVersion: applicationVersion(),
      schemaVersion,
    } as const;
    const dumps = dumpTables(trx, "postgres", TABLES, progress, present);
    await writeDataFile(file, header, dumps, (table, rows) => {
      tables[table] = (tables[table] ?? 0) + rows;
      progress.rows(rows);
    });
    for (const spec of TABLES) if (present.has(spec.name)) tables[spec.name] ??= 0;
    return { schemaVersion, tables };
  });
}

async function copyMedia(config: BackupConfig, directory: string, progress: Progress): Promise<Manifest["media"]> {
  const storage = createMediaStorage(config);
  try {
    progress.step("Copying media files");
    const folder = path.join(directory, storage.bucket);
    await mkdir(folder, { recursive: true });
    let files = 0;
    let bytes = 0;
    for (const stored of await storage.list()) {
      const file = await storage.get(stored.path);
      if (!file) continue; // deleted since it was listed
      await writeFile(path.join(folder, stored.path), file.body);
      files++;
      bytes += file.body.length;
      progress.file(file.body.length);
    }
    return { bucket: storage.bucket, files, bytes };
  } finally {
    storage.close();
  }
}
