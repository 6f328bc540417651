import type { Kysely } from "kysely";
import { Migrator } from "kysely/migration";
import type { DialectName } from "./connection.ts";
import { migrationsFor } from "./migrations/index.ts";
import type { Database } from "./schema.ts";

export class MigrationError extends Error {
  override name = "MigrationError";
}

/**
 * Brings the schema to the latest version. Kysely takes a lock (a lock table on
 * SQLite, an advisory lock on PostgreSQL), so several instances starting at once
 * migrate once. Each migration runs in a transaction on both databases.
 * Returns the names of the migrations applied now.
 */
export async function migrateToLatest(db: Kysely<Database>, dialect: DialectName): Promise<string[]> {
  const migrations = migrationsFor(dialect);
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === "Error");
  if (error) {
    const where = failed ? ` (migration ${failed.migrationName})` : "";
    throw new MigrationError(`Database migration failed${where}: ${String((error as Error).message ?? error)}`, {
      cause: error,
    });
  }
  return (results ?? []).filter((result) => result.status === "Success").map((result) => result.migrationName);
}
