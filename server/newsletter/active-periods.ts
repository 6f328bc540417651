import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { newId } from "../ids.ts";

/**
 * The newsletter_active_periods table's only writer, called by subscribers.ts alone,
 * in the transaction of the subscriber's own change: a confirmation opens a period;
 * whatever ends the subscriber's active state closes it. A subscriber has at most one
 * open period. Deleting the subscriber deletes their periods (ON DELETE CASCADE).
 */

export async function openActivePeriod(db: Kysely<Database>, subscriberId: string, at: string): Promise<void> {
  await db
    .insertInto("newsletter_active_periods")
    .values({ id: newId("period"), subscriber_id: subscriberId, started_at: at, ended_at: null })
    .execute();
}

/** Ends the subscriber's open period at `at`; nothing when they have none. */
export async function closeActivePeriod(db: Kysely<Database>, subscriberId: string, at: string): Promise<void> {
  await db
    .updateTable("newsletter_active_periods")
    .set({ ended_at: at })
    .where("subscriber_id", "=", subscriberId)
    .where("ended_at", "is", null)
    .execute();
}
