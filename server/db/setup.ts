import type { DatabaseConfig } from "../config.ts";
import type { Logger } from "../logger.ts";
import { type DatabaseHandle, openDatabase } from "./connection.ts";
import { migrateToLatest } from "./migrate.ts";
import { seedDefaults } from "./seed.ts";

/** Opens the database, brings its schema up to date and seeds missing defaults. */
export async function prepareDatabase(config: DatabaseConfig, logger: Logger): Promise<DatabaseHandle> {
  const handle = openDatabase(config);
  try {
    const applied = await migrateToLatest(handle.db, handle.dialect);
    if (applied.length > 0) logger.info({ migrations: applied }, `Applied ${applied.length} migration(s)`);
    await seedDefaults(handle.db);
    return handle;
  } catch (error) {
    await handle.close().catch(() => {});
    throw error;
  }
}
