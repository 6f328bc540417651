import { mkdirSync, statSync } from "node:fs";
import path from "node:path";
import { Kysely, PostgresDialect, SqliteDialect, sql } from "kysely";
import pg from "pg";
import type { DatabaseConfig } from "../config.ts";
import type { Logger } from "../logger.ts";
import { SqliteResultNormalizer } from "./normalize.ts";
import type { Database } from "./schema.ts";
import { openSqliteDatabase } from "./sqlite-database.ts";

export type DialectName = DatabaseConfig["kind"];

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** Throws when the database cannot answer a trivial query. */
  ping(): Promise<void>;
  /** PostgreSQL's connection pool, read by the metrics; SQLite has one connection and none. */
  pool?: Pick<pg.Pool, "totalCount" | "idleCount" | "waitingCount" | "options">;
  close(): Promise<void>;
}

const PG_TYPES = {
  INT8: 20,
  NUMERIC: 1700,
  TIMESTAMP: 1114,
  TIMESTAMPTZ: 1184,
} as const;

/**
 * Type parsers for our own pool only (other libraries keep pg's defaults): counts
 * and bigints as numbers like SQLite gives, timestamps as ISO-8601 strings like we
 * store them on SQLite.
 */
const pgTypes = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    switch (oid) {
      case PG_TYPES.INT8:
      case PG_TYPES.NUMERIC:
        return (value: string) => Number(value);
      case PG_TYPES.TIMESTAMPTZ:
        return (value: string) => new Date(value).toISOString();
      case PG_TYPES.TIMESTAMP:
        return (value: string) => new Date(`${value.replace(" ", "T")}Z`).toISOString();
      default:
        return pg.types.getTypeParser(oid, format);
    }
  },
} as pg.CustomTypesConfig;

/**
 * Opens the database. `logger` hears of a PostgreSQL connection lost while idle; without
 * one (tests, one-off commands) that goes to stderr, never nowhere.
 */
export function openDatabase(config: DatabaseConfig, logger?: Pick<Logger, "error">): DatabaseHandle {
  if (config.kind === "postgres") {
    const pool = new pg.Pool({ connectionString: config.url, types: pgTypes, max: 10 });
    // An idle client that loses its connection emits 'error' on the pool; without a
    // listener that would crash the process. The next query reconnects, so it is
    // reported and not rethrown.
    pool.on("error", (error) => {
      const message = "PostgreSQL connection lost while idle; the next query reconnects";
      if (logger) logger.error({ err: error }, message);
      else console.error(`${message}:`, error);
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      dialect: "postgres",
      pool,
      ping: async () => {
        await sql`select 1`.execute(db);
      },
      close: () => db.destroy(),
    };
  }

  const onDisk = config.file !== ":memory:";
  if (onDisk) mkdirSync(path.dirname(config.file), { recursive: true });
  const { database } = openSqliteDatabase(config.file);
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database }),
    plugins: [new SqliteResultNormalizer()],
  });
  // An open SQLite connection keeps answering after its file was deleted or replaced
  // (the old inode lives on), while every write it acknowledges is lost at the next
  // start. The ping therefore also checks that the path still holds the file we opened.
  const opened = onDisk ? statSync(config.file) : undefined;
  return {
    db,
    dialect: "sqlite",
    ping: async () => {
      await sql`select 1`.execute(db);
      if (!opened) return;
      const current = statSync(config.file, { throwIfNoEntry: false });
      if (!current || current.ino !== opened.ino || current.dev !== opened.dev) {
        throw new Error(`The SQLite database file ${config.file} was deleted or replaced`);
      }
    },
    close: () => db.destroy(),
  };
}
