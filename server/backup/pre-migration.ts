import path from "node:path";
import type { DatabaseHandle } from "../db/connection.ts";
import type { Logger } from "../logger.ts";
import { countRows, existingTables } from "../transfer/read-rows.ts";
import { appliedSchemaVersion, pendingMigrations } from "../transfer/schema-version.ts";
import { TABLES } from "../transfer/tables.ts";
import { type BackupConfig, backupDirectory, backupFileName, createBackup } from "./backup.ts";

/**
 * Upgrade safety: before migrations run on a database that already holds data, a full
 * backup goes to DATA_DIR/backups (`bastion-before-<first pending migration>-….tar.gz`),
 * so an upgrade that goes wrong can be undone with `restore`. A blank or empty database
 * has nothing to lose and is migrated at once. Returns the backup's path, if one was taken.
 */
export async function backupBeforeMigrating(
  config: BackupConfig,
  handle: DatabaseHandle,
  logger: Pick<Logger, "info">,
): Promise<string | null> {
  const pending = await pendingMigrations(handle.db, handle.dialect);
  if (pending.length === 0) return null;
  if (!(await appliedSchemaVersion(handle.db))) return null;
  if (!(await holdsData(handle))) return null;
  const file = path.join(backupDirectory(config), backupFileName(`before-${pending[0]}-`));
  logger.info({ file, pending }, `Pending migrations on a database with data: backing it up to ${file} first`);
  const result = await createBackup(config, handle, { file });
  logger.info({ file: result.file, bytes: result.bytes }, `Backed up the database before migrating: ${result.file}`);
  return result.file;
}

/** Any row in any table (the default rows seeded at start count: they may have been edited). */
async function holdsData(handle: DatabaseHandle): Promise<boolean> {
  const present = await existingTables(handle.db);
  for (const spec of TABLES) {
    if (present.has(spec.name) && (await countRows(handle.db, spec.name)) > 0) return true;
  }
  return false;
}
