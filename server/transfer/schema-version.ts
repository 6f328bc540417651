import { readFileSync } from "node:fs";
import { type Kysely, sql } from "kysely";
import { Migrator } from "kysely/migration";
import type { DialectName } from "../db/connection.ts";
import { MigrationError } from "../db/migrate.ts";
import { migrationsFor } from "../db/migrations/index.ts";
import type { Database } from "../db/schema.ts";

/**
 * The schema version of a database is the name of the latest migration applied to it
 * (server/db/migrations/index.ts); names sort in the order they were released.
 */

/** Every migration this installation knows, oldest first. */
export function knownSchemaVersions(): string[] {
  return Object.keys(migrationsFor("sqlite")).sort();
}

export function latestSchemaVersion(): string {
  return knownSchemaVersions().at(-1) as string;
}

/** The latest migration applied, or null for a database without any (blank). */
export async function appliedSchemaVersion(db: Kysely<Database>): Promise<string | null> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((found) => found.name === "kysely_migration")) return null;
  const result = await sql<{ name: string }>`select name from kysely_migration order by name desc limit 1`.execute(db);
  return result.rows[0]?.name ?? null;
}

/** Migrations not applied yet. */
export async function pendingMigrations(db: Kysely<Database>, dialect: DialectName): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrationsFor(dialect) } });
  const migrations = await migrator.getMigrations();
  return migrations.filter((migration) => !migration.executedAt).map((migration) => migration.name);
}

/** Brings a database up to (not beyond) the given migration. */
export async function migrateTo(db: Kysely<Database>, dialect: DialectName, version: string): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrationsFor(dialect) } });
  const { error } = await migrator.migrateTo(version);
  if (error) {
    throw new MigrationError(`Database migration to ${version} failed: ${String((error as Error).message ?? error)}`, {
      cause: error,
    });
  }
}

/** The message for data from a newer installation, or null when this one can read it. */
export function newerSchemaMessage(kind: "backup" | "export file", version: string): string | null {
  if (knownSchemaVersions().includes(version)) return null;
  if (version < latestSchemaVersion()) {
    return `This ${kind} names schema ${version}, which no version of Bastion has; it cannot be read.`;
  }
  return `This ${kind} was made by a newer version of Bastion (schema ${version}); this installation has schema ${latestSchemaVersion()}. Upgrade Bastion first.`;
}

let appVersion: string | undefined;

/** The version in package.json. */
export function applicationVersion(): string {
  appVersion ??= (
    JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
  ).version;
  return appVersion;
}
