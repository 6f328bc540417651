import { type Kysely, sql } from "kysely";
import type { DatabaseHandle } from "../db/connection.ts";
import type { Database } from "../db/schema.ts";
import { migrateTo } from "../transfer/schema-version.ts";

/**
 * The way back from an upgrade: a backup taken before it (at the older schema) restored
 * into the database the upgrade migrated, by the older release, which does not know
 * the newer migrations. The database is Bastion's own, so its whole schema is replaced
 * in one transaction: every table is dropped (the newer release's too, which a later
 * upgrade creates again), the migrations up to `version` are run, and `load` fills the
 * tables. A failure at any step leaves the database as it was.
 */
export async function replaceSchema(
  handle: DatabaseHandle,
  version: string,
  load: (db: Kysely<Database>) => Promise<void>,
): Promise<void> {
  if (handle.dialect === "postgres") {
    // PostgreSQL's DDL is transactional, and Kysely's migrator runs in a transaction it is given.
    await handle.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ name: string }>`
        select tablename as name from pg_tables where schemaname = current_schema()`.execute(trx);
      if (rows.length > 0) {
        await sql`drop table ${sql.join(rows.map((row) => sql.table(row.name)))} cascade`.execute(trx);
      }
      await migrateTo(trx, "postgres", version);
      await load(trx);
    });
    return;
  }
  // SQLite's DDL is transactional too, but Kysely's migrator takes no transaction on
  // SQLite. Its SQLite dialect has one connection: the transaction is begun on it, and
  // the migrator and the load run on the same connection inside it.
  await handle.db.connection().execute(async (db) => {
    await sql`begin immediate`.execute(db);
    try {
      // A dropped table's rows leave at once; the references are checked at the commit.
      await sql`pragma defer_foreign_keys = on`.execute(db);
      const { rows } = await sql<{ name: string }>`
        select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db);
      for (const row of rows) await sql`drop table ${sql.table(row.name)}`.execute(db);
      await migrateTo(db, "sqlite", version);
      await load(db);
      await sql`commit`.execute(db);
    } catch (error) {
      // SQLite ends some failed transactions itself: a rollback refused then must not hide why.
      await sql`rollback`.execute(db).catch(() => {});
      throw error;
    }
  });
}
