import { type Kysely, type QueryExecutorProvider, sql } from "kysely";
import { newId } from "../../ids.ts";
import type { DialectName } from "../connection.ts";

/**
 * newsletter_active_periods: when each subscriber was active, one row per confirmation.
 * The active-subscribers chart rebuilt the past from the subscriber's row, but a new
 * subscription clears its confirmed_at and unsubscribed_at, and the earlier active
 * days vanished from the chart. Each confirmed subscriber gets one period here, ending
 * when the chart took them to have left (its query until now, to the letter), so the
 * chart shows the same days after this migration as before it.
 *
 * Indexes: (ended_at, started_at) holds all the chart reads, and lets it skip periods
 * that ended before its first day; subscriber_id serves closing a subscriber's open
 * period and the cascade of a subscriber's deletion.
 */

const BACKFILL_BATCH = 200;

interface Backfilled {
  id: string;
  started_at: string;
  ended_at: string | null;
}

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const timestamp = dialect === "postgres" ? "timestamptz" : "text";
  await db.schema
    .createTable("newsletter_active_periods")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("subscriber_id", "text", (c) => c.notNull().references("newsletter_subscribers.id").onDelete("cascade"))
    .addColumn("started_at", timestamp, (c) => c.notNull())
    .addColumn("ended_at", timestamp)
    .execute();
  await db.schema
    .createIndex("newsletter_active_periods_ended_idx")
    .on("newsletter_active_periods")
    .columns(["ended_at", "started_at"])
    .execute();
  await db.schema
    .createIndex("newsletter_active_periods_subscriber_idx")
    .on("newsletter_active_periods")
    .column("subscriber_id")
    .execute();
  await deriveActivePeriods(db);
}

/**
 * One period per confirmed subscriber, from the subscriber rows alone. Also what an
 * import of an export file written before this table existed runs (server/transfer/),
 * so its subscribers count in the chart as they did where it was written. In batches by
 * id: memory stays flat however many subscribers there are.
 */
export async function deriveActivePeriods(db: QueryExecutorProvider): Promise<void> {
  let after = "";
  for (;;) {
    const { rows } = await sql<Backfilled>`
      select id, confirmed_at as started_at,
        case
          when status = 'active' then null
          when status = 'bounced'
            and unsubscribed_at >= confirmed_at
            and unsubscribed_at < coalesce(bounced_at, updated_at) then unsubscribed_at
          when status = 'bounced' then coalesce(bounced_at, updated_at)
          else coalesce(unsubscribed_at, confirmed_at)
        end as ended_at
      from newsletter_subscribers
      where confirmed_at is not null and id > ${after}
      order by id
      limit ${BACKFILL_BATCH}`.execute(db);
    if (rows.length === 0) break;
    const values = rows.map((row) => sql`(${newId("period")}, ${row.id}, ${row.started_at}, ${row.ended_at})`);
    await sql`insert into newsletter_active_periods (id, subscriber_id, started_at, ended_at)
      values ${sql.join(values)}`.execute(db);
    after = (rows.at(-1) as Backfilled).id;
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("newsletter_active_periods").execute();
}
