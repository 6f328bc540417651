import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import type { SqliteDatabase, SqliteStatement } from "kysely";

/**
 * Adapts node:sqlite's DatabaseSync to the interface Kysely's SqliteDialect expects
 * (that of better-sqlite3), so no native addon is compiled at install time.
 * Kysely passes parameters as an array; node:sqlite wants them spread, and it
 * cannot bind booleans or Dates, which we store as 1/0 and ISO-8601 text.
 */
export function openSqliteDatabase(file: string): { database: SqliteDatabase; raw: DatabaseSync } {
  const raw = new DatabaseSync(file, { enableForeignKeyConstraints: true, timeout: 5000 });
  raw.exec("PRAGMA journal_mode = WAL");
  // FULL: every acknowledged write survives a power loss, not only a process crash
  // (ARCHITECTURE.md, "Nothing lost"). The write rate of this site is low.
  raw.exec("PRAGMA synchronous = FULL");
  raw.exec("PRAGMA foreign_keys = ON");

  // Kysely prepares every query it runs; parsing and planning the same SQL again is
  // a large share of a small query's cost, so prepared statements are kept for reuse.
  const cache = new Map<string, SqliteStatement>();
  const database: SqliteDatabase = {
    close: () => raw.close(),
    prepare(sql: string): SqliteStatement {
      const cached = cache.get(sql);
      if (cached) return cached;
      const statement = raw.prepare(sql);
      const prepared: SqliteStatement = {
        reader: statement.columns().length > 0,
        all: (parameters) => statement.all(...toSqliteValues(parameters)),
        run: (parameters) => statement.run(...toSqliteValues(parameters)),
        // A streamed read holds its statement open: it gets one of its own.
        iterate: (parameters) => raw.prepare(sql).iterate(...toSqliteValues(parameters)),
      };
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      cache.set(sql, prepared);
      return prepared;
    },
  };
  return { database, raw };
}

/** Distinct statements kept prepared; the oldest is dropped beyond this. */
const STATEMENT_CACHE_SIZE = 500;

function toSqliteValues(parameters: ReadonlyArray<unknown>): SQLInputValue[] {
  return parameters.map((value) => {
    if (typeof value === "boolean") return value ? 1 : 0;
    if (value instanceof Date) return value.toISOString();
    if (value === undefined) return null;
    return value as SQLInputValue;
  });
}
