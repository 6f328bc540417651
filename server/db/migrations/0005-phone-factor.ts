import { type ColumnDefinitionBuilder, type Kysely, sql } from "kysely";
import type { DialectName } from "../connection.ts";
import { OUTBOX_STATUSES } from "../schema.ts";

/**
 * The phone as a second factor, and the text messages that carry its codes.
 *
 * phone_factors: one phone number per account, pending until a code sent to it is
 * entered (verified_at). The codes themselves live, hashed and single-use, in Better
 * Auth's verification table.
 *
 * sms_outbox: the durable outbox of text messages, claimed by the SMS worker with a
 * lease like email_outbox. A message is worthless after its code expires
 * (expires_at), and its text (which holds the code) is cleared once it has left.
 * The per-number and per-account send limits count its rows.
 */

function columnTypes(dialect: DialectName) {
  const postgres = dialect === "postgres";
  return {
    timestamp: postgres ? ("timestamptz" as const) : ("text" as const),
    now: (column: ColumnDefinitionBuilder) =>
      column.defaultTo(postgres ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`),
  };
}

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable("phone_factors")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("user.id").onDelete("cascade"))
    .addColumn("phone_number", "text", (c) => c.notNull())
    .addColumn("verified_at", t.timestamp)
    .addColumn("created_at", t.timestamp, (c) => t.now(c).notNull())
    .execute();

  await db.schema
    .createTable("sms_outbox")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.references("user.id").onDelete("cascade"))
    .addColumn("to_number", "text", (c) => c.notNull())
    .addColumn("body", "text")
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", t.timestamp, (c) => t.now(c).notNull())
    .addColumn("lease_expires_at", t.timestamp)
    .addColumn("expires_at", t.timestamp, (c) => c.notNull())
    .addColumn("last_error", "text")
    .addColumn("created_at", t.timestamp, (c) => t.now(c).notNull())
    .addColumn("sent_at", t.timestamp)
    .addCheckConstraint(
      "sms_outbox_status_check",
      sql`${sql.ref("status")} in (${sql.join(OUTBOX_STATUSES.map((status) => sql.lit(status)))})`,
    )
    .execute();
  await db.schema.createIndex("sms_outbox_due_idx").on("sms_outbox").columns(["status", "next_attempt_at"]).execute();
  await db.schema.createIndex("sms_outbox_number_idx").on("sms_outbox").columns(["to_number", "created_at"]).execute();
  await db.schema.createIndex("sms_outbox_user_idx").on("sms_outbox").columns(["user_id", "created_at"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("sms_outbox").execute();
  await db.schema.dropTable("phone_factors").execute();
}
