import { existsSync } from "node:fs";
import type { Config } from "../server/config.ts";
import { type DatabaseHandle, openDatabase } from "../server/db/connection.ts";
import { UsageError } from "./command.ts";

/**
 * Opens the database for a command that only reads it (export, backup). Opening a
 * SQLite file creates it, so a mistyped DATA_DIR or DATABASE_URL would leave an empty
 * database (and its folder) behind and then report that there is nothing to read:
 * a missing file is refused before it is opened.
 */
export function openExistingDatabase(config: Config): DatabaseHandle {
  const database = config.database;
  if (database.kind === "sqlite" && database.file !== ":memory:" && !existsSync(database.file)) {
    throw new UsageError(`There is no database at ${database.file}: check DATA_DIR or DATABASE_URL.`);
  }
  return openDatabase(database);
}
