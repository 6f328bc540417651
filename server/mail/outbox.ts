import type { ExpressionBuilder, Kysely, Selectable, Updateable } from "kysely";
import type { Database, EmailOutboxTable } from "../db/schema.ts";
import { newId } from "../ids.ts";
import { type NewEmail, parseNewEmail } from "./email-input.ts";

/**
 * The durable outbox: the only module that writes `email_outbox`. Services enqueue in
 * the transaction of the change that causes the email; the worker claims due rows
 * with a lease and records how each send went.
 */

export type OutboxRow = Selectable<EmailOutboxTable>;
export type OutboxStatus = OutboxRow["status"];
export type { NewEmail };

const nowIso = () => new Date().toISOString();
const asJson = <T>(value: T) => JSON.stringify(value) as unknown as T;

/**
 * Writes one email. `db` may be a transaction: the email then exists only if the
 * change that causes it commits. A second call with the same idempotency key adds
 * nothing and returns the first row's id with `created: false`.
 */
export async function enqueueEmail(db: Kysely<Database>, email: NewEmail): Promise<{ id: string; created: boolean }> {
  const input = parseNewEmail(email);
  const inserted = await db
    .insertInto("email_outbox")
    .values({
      id: newId("email"),
      idempotency_key: input.idempotencyKey,
      kind: input.kind,
      to_address: input.to,
      subject: input.subject,
      html_body: input.html,
      text_body: input.text,
      headers: asJson(input.headers),
      next_attempt_at: nowIso(),
    })
    .onConflict((conflict) => conflict.column("idempotency_key").doNothing())
    .returning("id")
    .executeTakeFirst();
  if (inserted) return { id: inserted.id, created: true };
  const existing = await db
    .selectFrom("email_outbox")
    .select("id")
    .where("idempotency_key", "=", input.idempotencyKey)
    .executeTakeFirstOrThrow();
  return { id: existing.id, created: false };
}

// ---------------------------------------------------------------------------
// Admin: the email log

export type EmailLogEntry = Omit<OutboxRow, "html_body" | "text_body" | "headers" | "idempotency_key">;

const LOG_COLUMNS = [
  "id",
  "kind",
  "to_address",
  "subject",
  "status",
  "attempts",
  "next_attempt_at",
  "lease_expires_at",
  "last_error",
  "message_id",
  "created_at",
  "sent_at",
] as const;

/**
 * The most recent rows first, without their bodies. `before` is the last entry of
 * the previous page (keyset pagination: stable while new emails arrive).
 */
export async function listRecentEmails(
  db: Kysely<Database>,
  options: { limit?: number; status?: OutboxStatus; before?: { created_at: string; id: string } } = {},
): Promise<EmailLogEntry[]> {
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? 50), 1), 500);
  let query = db.selectFrom("email_outbox").select(LOG_COLUMNS);
  if (options.status) query = query.where("status", "=", options.status);
  const before = options.before;
  if (before) {
    query = query.where((eb) =>
      eb.or([
        eb("created_at", "<", before.created_at),
        eb.and([eb("created_at", "=", before.created_at), eb("id", "<", before.id)]),
      ]),
    );
  }
  return query.orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).execute();
}

/** Rows per status, all of them or those whose idempotency key starts with `keyPrefix` (e.g. `notify:{id}:`). */
export async function countEmailsByStatus(
  db: Kysely<Database>,
  keyPrefix?: string,
): Promise<Record<OutboxStatus, number>> {
  let query = db
    .selectFrom("email_outbox")
    .select((eb) => ["status", eb.fn.countAll<number>().as("count")])
    .groupBy("status");
  // substr rather than LIKE: no wildcard escaping, same meaning on both databases.
  if (keyPrefix) {
    query = query.where((eb) =>
      eb(eb.fn("substr", ["idempotency_key", eb.lit(1), eb.val(keyPrefix.length)]), "=", keyPrefix),
    );
  }
  const counts: Record<OutboxStatus, number> = { pending: 0, sending: 0, sent: 0, failed: 0, unsent: 0 };
  for (const row of await query.execute()) counts[row.status] = Number(row.count);
  return counts;
}

/**
 * Puts a failed (or unsent, once SMTP is configured) email back in the queue with
 * a fresh count of attempts. Returns false when the row is in no such state.
 */
export async function retryEmail(db: Kysely<Database>, id: string): Promise<boolean> {
  const result = await db
    .updateTable("email_outbox")
    .set({ status: "pending", attempts: 0, next_attempt_at: nowIso(), lease_expires_at: null, last_error: null })
    .where("id", "=", id)
    .where("status", "in", ["failed", "unsent"])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

// ---------------------------------------------------------------------------
// Worker: leases

/** A row the worker holds: `lease_expires_at` is its claim, checked by every later write. */
export type ClaimedEmail = OutboxRow & { status: "sending"; lease_expires_at: string };

/**
 * Claims up to `limit` due rows (pending and due, or sending with an expired lease)
 * for `leaseMs`, counting one attempt each. The UPDATE repeats the due condition, so
 * of several workers that picked the same candidates only one gets each row: on
 * PostgreSQL the second waits for the first's row lock and then re-checks the
 * condition on the new row version; SQLite runs one writer at a time. `more` tells
 * whether the candidate query was cut by the limit.
 */
export async function claimDueEmails(
  db: Kysely<Database>,
  options: { now: string; leaseMs: number; limit: number },
): Promise<{ rows: ClaimedEmail[]; more: boolean }> {
  const { now, limit } = options;
  const due = (eb: ExpressionBuilder<Database, "email_outbox">) =>
    eb.or([
      eb.and([eb("status", "=", "pending"), eb("next_attempt_at", "<=", now)]),
      eb.and([eb("status", "=", "sending"), eb("lease_expires_at", "<=", now)]),
    ]);
  const candidates = await db
    .selectFrom("email_outbox")
    .select("id")
    .where(due)
    .orderBy("next_attempt_at")
    .limit(limit)
    .execute();
  if (candidates.length === 0) return { rows: [], more: false };

  const lease = new Date(Math.max(Date.now(), Date.parse(now)) + options.leaseMs).toISOString();
  const rows = await db
    .updateTable("email_outbox")
    .set((eb) => ({ status: "sending", lease_expires_at: lease, attempts: eb("attempts", "+", 1) }))
    .where(
      "id",
      "in",
      candidates.map((candidate) => candidate.id),
    )
    .where(due)
    .returningAll()
    .execute();
  return { rows: rows as ClaimedEmail[], more: candidates.length === limit };
}

/**
 * Ends a claim. Matching the lease value makes it a compare-and-set: a worker whose
 * lease expired and was taken over writes nothing (returns false).
 */
async function finishClaim(
  db: Kysely<Database>,
  row: ClaimedEmail,
  values: Updateable<EmailOutboxTable>,
): Promise<boolean> {
  const result = await db
    .updateTable("email_outbox")
    .set({ ...values, lease_expires_at: null })
    .where("id", "=", row.id)
    .where("status", "=", "sending")
    .where("lease_expires_at", "=", row.lease_expires_at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export const markSent = (db: Kysely<Database>, row: ClaimedEmail, messageId: string) =>
  finishClaim(db, row, { status: "sent", sent_at: nowIso(), message_id: messageId, last_error: null });

export const markForRetry = (db: Kysely<Database>, row: ClaimedEmail, error: string, nextAttemptAt: string) =>
  finishClaim(db, row, { status: "pending", last_error: truncate(error), next_attempt_at: nextAttemptAt });

export const markFailed = (db: Kysely<Database>, row: ClaimedEmail, error: string) =>
  finishClaim(db, row, { status: "failed", last_error: truncate(error) });

export const markUnsent = (db: Kysely<Database>, row: ClaimedEmail, reason: string) =>
  finishClaim(db, row, { status: "unsent", last_error: reason });

function truncate(text: string): string {
  return text.length > 1000 ? `${text.slice(0, 999)}…` : text;
}
