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

  const database: SqliteDatabase = {
    close: () => raw.close(),
    prepare(sql: string): SqliteStatement {
      const statement = raw.prepare(sql);
      return {
        reader: statement.columns().length > 0,
        all: (parameters) => statement.all(...toSqliteValues(parameters)),
        run: (parameters) => statement.run(...toSqliteValues(parameters)),
        iterate: (parameters) => statement.iterate(...toSqliteValues(parameters)),
      };
    },
  };
  return { database, raw };
}

function toSqliteValues(parameters: ReadonlyArray<unknown>): SQLInputValue[] {
  return parameters.map((value) => {
    if (typeof value === "boolean") return value ? 1 : 0;
    if (value instanceof Date) return value.toISOString();
    if (value === undefined) return null;
    return value as SQLInputValue;
  });
}
