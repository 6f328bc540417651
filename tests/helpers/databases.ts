import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { DatabaseConfig } from "../../server/config.ts";
import { type DatabaseHandle, openDatabase } from "../../server/db/connection.ts";
import { migrateToLatest } from "../../server/db/migrate.ts";

/**
 * Fresh, empty databases for tests: a new SQLite file in its own temporary folder,
 * and, when TEST_DATABASE_URL is set, a new PostgreSQL database on that server.
 * Each is dropped by drop(). In CI, PostgreSQL is required: a missing or
 * unreachable server fails the run instead of skipping half of the suite.
 */

export type TestDialect = DatabaseConfig["kind"];

export interface TestDatabase {
  dialect: TestDialect;
  config: DatabaseConfig;
  /** A DATABASE_URL for this database: postgres://… or file:<path>. */
  url: string;
  drop(): Promise<void>;
}

const postgresUrl = process.env.TEST_DATABASE_URL?.trim() || undefined;

if (process.env.CI && !postgresUrl) {
  throw new Error("TEST_DATABASE_URL must be set in CI: the suite runs on SQLite and PostgreSQL.");
}

/** The dialects this run covers: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const TEST_DIALECTS: TestDialect[] = postgresUrl ? ["sqlite", "postgres"] : ["sqlite"];

export async function createTestDatabase(dialect: TestDialect): Promise<TestDatabase> {
  return dialect === "postgres" ? createPostgresDatabase() : createSqliteDatabase();
}

function createSqliteDatabase(): TestDatabase {
  const directory = mkdtempSync(path.join(tmpdir(), "bastion-test-db-"));
  const file = path.join(directory, "bastion.sqlite");
  return {
    dialect: "sqlite",
    config: { kind: "sqlite", file },
    url: `file:${file}`,
    drop: async () => rmSync(directory, { recursive: true, force: true }),
  };
}

async function withAdminClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`PostgreSQL at TEST_DATABASE_URL is unreachable: ${(error as Error).message}`);
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function createPostgresDatabase(): Promise<TestDatabase> {
  const name = `bastion_test_${Date.now()}_${randomBytes(4).toString("hex")}`;
  await withAdminClient((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(postgresUrl as string);
  url.pathname = `/${name}`;
  return {
    dialect: "postgres",
    config: { kind: "postgres", url: url.href },
    url: url.href,
    drop: () =>
      withAdminClient(async (client) => {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }),
  };
}

export interface MigratedDatabase {
  testDb: TestDatabase;
  handle: DatabaseHandle;
  close(): Promise<void>;
}

/** A fresh database of `dialect` with the schema applied; close() drops it. */
export async function migratedDatabase(dialect: TestDialect): Promise<MigratedDatabase> {
  const testDb = await createTestDatabase(dialect);
  const handle = openDatabase(testDb.config);
  await migrateToLatest(handle.db, handle.dialect);
  return {
    testDb,
    handle,
    async close() {
      await handle.close();
      await testDb.drop();
    },
  };
}
