import type { Kysely } from "kysely";

/**
 * email_outbox.batch_id: the batch an email belongs to (a newsletter notification's
 * id), indexed with the status, so that a batch's progress is counted from the
 * index instead of by scanning every row's idempotency key. Rows queued before this
 * migration get theirs from the `notify:{notification}:{subscriber}` key.
 */

const NOTIFY_PREFIX = "notify:";

/**
 * The columns this migration reads and writes, as they are at this point of the
 * schema's history (a type literal: withTables wants an index signature, which
 * interfaces lack).
 */
type OutboxAtThisMigration = {
  email_outbox: { idempotency_key: string; batch_id: string | null };
};

export async function up(schemaDb: Kysely<unknown>): Promise<void> {
  const db = schemaDb.withTables<OutboxAtThisMigration>();
  await db.schema.alterTable("email_outbox").addColumn("batch_id", "text").execute();
  await db.schema.createIndex("email_outbox_batch_idx").on("email_outbox").columns(["batch_id", "status"]).execute();

  const keys: { idempotency_key: string }[] = await db
    .selectFrom("email_outbox")
    .select("idempotency_key")
    .where((eb) =>
      eb(eb.fn("substr", ["idempotency_key", eb.lit(1), eb.lit(NOTIFY_PREFIX.length)]), "=", NOTIFY_PREFIX),
    )
    .execute();
  const byNotification = new Map<string, string[]>();
  for (const { idempotency_key: key } of keys) {
    const notificationId = key.slice(NOTIFY_PREFIX.length, key.indexOf(":", NOTIFY_PREFIX.length));
    if (!notificationId) continue;
    byNotification.set(notificationId, [...(byNotification.get(notificationId) ?? []), key]);
  }
  for (const [notificationId, rowKeys] of byNotification) {
    for (let start = 0; start < rowKeys.length; start += 500) {
      await db
        .updateTable("email_outbox")
        .set({ batch_id: notificationId })
        .where("idempotency_key", "in", rowKeys.slice(start, start + 500))
        .execute();
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("email_outbox_batch_idx").execute();
  await db.schema.alterTable("email_outbox").dropColumn("batch_id").execute();
}
