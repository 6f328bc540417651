import type { DatabaseConfig } from "../config.ts";
import type { Logger } from "../logger.ts";
import { type DatabaseHandle, openDatabase } from "./connection.ts";
import { migrateToLatest } from "./migrate.ts";
import { seedDefaults } from "./seed.ts";

/**
 * Opens the database, brings its schema up to date and seeds missing defaults.
 * `beforeMigrating` runs first (the server's backup of a database with data when
 * migrations are pending, server/backup/pre-migration.ts); its failure stops the start.
 */
export async function prepareDatabase(
  config: DatabaseConfig,
  logger: Logger,
  beforeMigrating?: (handle: DatabaseHandle) => Promise<unknown>,
): Promise<DatabaseHandle> {
  const handle = openDatabase(config, logger);
  try {
    await beforeMigrating?.(handle);
    const applied = await migrateToLatest(handle.db, handle.dialect);
    if (applied.length > 0) logger.info({ migrations: applied }, `Applied ${applied.length} migration(s)`);
    await seedDefaults(handle.db);
    return handle;
  } catch (error) {
    // The migration's or seed's error is the one to report; a failure to close after it
    // is logged beside it rather than hiding it.
    await handle.close().catch((closeError: unknown) => {
      logger.error({ err: closeError }, "Could not close the database after a failed start");
    });
    throw error;
  }
}
