import { type Kysely, sql } from "kysely";
import type { DialectName } from "../connection.ts";

/**
 * audit_log.user_id no longer references the user table. With the reference, deleting
 * a user set the user id of every row they had written to null, so the log forgot who
 * had done what as soon as that person left. An id is never reused, and the
 * `user.deleted` row keeps the deleted user's email, so a row of a deleted user still
 * names them.
 *
 * PostgreSQL drops the constraint. SQLite cannot drop one, so the table is rebuilt
 * with the same columns, rows and index, as SQLite's documentation prescribes for any
 * change it has no ALTER TABLE for.
 */

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect === "postgres") {
    await sql`alter table audit_log drop constraint if exists audit_log_user_id_fkey`.execute(db);
    return;
  }
  await db.schema
    .createTable("audit_log_next")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("at", "text", (c) => c.defaultTo(sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`).notNull())
    .addColumn("user_id", "text")
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("entity", "text", (c) => c.notNull())
    .addColumn("entity_id", "text")
    .addColumn("details", "text", (c) => c.defaultTo(sql`'{}'`).notNull())
    .execute();
  await sql`insert into audit_log_next (id, at, user_id, action, entity, entity_id, details)
    select id, at, user_id, action, entity, entity_id, details from audit_log`.execute(db);
  await db.schema.dropTable("audit_log").execute();
  await db.schema.alterTable("audit_log_next").renameTo("audit_log").execute();
  await db.schema.createIndex("audit_log_at_idx").on("audit_log").column("at").execute();
}
