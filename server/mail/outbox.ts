import type { ExpressionBuilder, Kysely, Selectable, Updateable } from "kysely";
import { type Database, type EmailOutboxTable, toJson } from "../db/schema.ts";
import { newId } from "../ids.ts";
import { type NewEmail, parseNewEmail, type ValidEmail } from "./email-input.ts";

/**
 * The durable outbox: the only module that writes `email_outbox`. Services enqueue in
 * the transaction of the change that causes the email; the worker claims due rows
 * with a lease and records how each send went.
 */

export type OutboxRow = Selectable<EmailOutboxTable>;
export type OutboxStatus = OutboxRow["status"];
export type { NewEmail };

const nowIso = () => new Date().toISOString();

/**
 * Writes one email. `db` may be a transaction: the email then exists only if the
 * change that causes it commits. A second call with the same idempotency key adds
 * nothing and returns the first row's id with `created: false`.
 */
export async function enqueueEmail(db: Kysely<Database>, email: NewEmail): Promise<{ id: string; created: boolean }> {
  const input = parseNewEmail(email);
  const inserted = await db
    .insertInto("email_outbox")
    .values(outboxRow(input, nowIso()))
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

/**
 * Writes many emails in one statement (a newsletter's fan-out), skipping those whose
 * idempotency key is already there. Returns how many were written.
 */
export async function enqueueEmails(db: Kysely<Database>, emails: readonly NewEmail[]): Promise<number> {
  if (emails.length === 0) return 0;
  const now = nowIso();
  const inserted = await db
    .insertInto("email_outbox")
    .values(emails.map((email) => outboxRow(parseNewEmail(email), now)))
    .onConflict((conflict) => conflict.column("idempotency_key").doNothing())
    .returning("id")
    .execute();
  return inserted.length;
}

function outboxRow(input: ValidEmail, now: string) {
  return {
    id: newId("email"),
    idempotency_key: input.idempotencyKey,
    kind: input.kind,
    batch_id: input.batchId ?? null,
    to_address: input.to,
    subject: input.subject,
    html_body: input.html,
    text_body: input.text,
    headers: toJson(input.headers),
    // Written here rather than left to the column's default: PostgreSQL's now() keeps
    // microseconds, which the email log's page cursor (read back to the millisecond) would
    // fall between, skipping the rest of a batch written in the same statement.
    created_at: now,
    next_attempt_at: now,
  };
}

// ---------------------------------------------------------------------------
// Admin: the email log

export type EmailLogEntry = Omit<OutboxRow, "html_body" | "text_body" | "headers" | "idempotency_key" | "batch_id">;

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

/** Rows per status, all of them or those of one batch (read from the batch's index). */
export async function countEmailsByStatus(
  db: Kysely<Database>,
  batchId?: string,
): Promise<Record<OutboxStatus, number>> {
  let query = db
    .selectFrom("email_outbox")
    .select((eb) => ["status", eb.fn.countAll<number>().as("count")])
    .groupBy("status");
  if (batchId !== undefined) query = query.where("batch_id", "=", batchId);
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

/**
 * How long a sent email keeps its bodies. A newsletter issue writes one row per
 * subscriber with the whole email in it; kept for good, the bodies would grow the
 * database by the size of every email ever sent. Nothing reads a sent email's bodies
 * (the email log shows neither), while the row itself stays: the log and each
 * notification's progress count it. Failed and unsent emails keep theirs, to be retried.
 */
export const SENT_BODY_DAYS = 30;

/**
 * Rows emptied per statement by clearSentBodies. On SQLite a statement holds the
 * process's one connection, and the event loop, while it runs: the first run after an
 * upgrade, over every email ever sent, would otherwise hold them for seconds.
 */
const CLEAR_BODIES_BATCH = 500;

/**
 * Empties the bodies of the emails sent before `before` (see SENT_BODY_DAYS), a batch
 * per statement with a turn of the event loop between them; returns how many.
 */
export async function clearSentBodies(
  db: Kysely<Database>,
  before: Date,
  batchSize: number = CLEAR_BODIES_BATCH,
): Promise<number> {
  let cleared = 0;
  for (;;) {
    const result = await db
      .updateTable("email_outbox")
      .set({ html_body: "", text_body: "" })
      .where("id", "in", (eb) =>
        eb
          .selectFrom("email_outbox")
          .select("id")
          .where("status", "=", "sent")
          .where("sent_at", "<", before.toISOString())
          .where((inner) => inner.or([inner("html_body", "<>", ""), inner("text_body", "<>", "")]))
          .limit(batchSize),
      )
      .executeTakeFirst();
    const batch = Number(result.numUpdatedRows);
    cleared += batch;
    if (batch < batchSize) return cleared;
    await new Promise((resolve) => setImmediate(resolve));
  }
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
  // The claim's re-check, written as a CASE so that no index can serve it: the UPDATE
  // then finds its rows by primary key instead of walking every due row of the index.
  const due = (eb: ExpressionBuilder<Database, "email_outbox">) =>
    eb
      .case()
      .when("status", "=", "pending")
      .then(eb("next_attempt_at", "<=", now))
      .when("status", "=", "sending")
      .then(eb("lease_expires_at", "<=", now))
      .else(eb.lit(false))
      .end();
  // Two index range scans rather than one OR, which would sort every due row: rows of
  // a crashed worker first (there are few), then pending rows in the index's order.
  const expired = await db
    .selectFrom("email_outbox")
    .select("id")
    .where("status", "=", "sending")
    .where("lease_expires_at", "<=", now)
    .orderBy("next_attempt_at")
    .limit(limit)
    .execute();
  const pending =
    expired.length < limit
      ? await db
          .selectFrom("email_outbox")
          .select("id")
          .where("status", "=", "pending")
          .where("next_attempt_at", "<=", now)
          .orderBy("next_attempt_at")
          .limit(limit - expired.length)
          .execute()
      : [];
  const candidates = [...expired, ...pending];
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
 * Extends a claim for `leaseMs` from now while its send is under way, as a
 * compare-and-set on the lease the worker holds: the new lease, or undefined when the
 * claim is no longer the worker's (its lease expired and another worker took the row).
 */
export async function renewLease(
  db: Kysely<Database>,
  row: ClaimedEmail,
  leaseMs: number,
): Promise<string | undefined> {
  const lease = new Date(Date.now() + leaseMs).toISOString();
  const result = await db
    .updateTable("email_outbox")
    .set({ lease_expires_at: lease })
    .where("id", "=", row.id)
    .where("status", "=", "sending")
    .where("lease_expires_at", "=", row.lease_expires_at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? lease : undefined;
}

/** How a claim ends. */
export type ClaimOutcome =
  | { status: "sent"; messageId: string }
  | { status: "retry"; error: string; nextAttemptAt: string }
  | { status: "failed"; error: string }
  | { status: "unsent"; reason: string }
  /**
   * Given back without a try to send it (the worker stopped, the row waited too long
   * in the worker's queue, or the send-time check failed): the attempt does not count.
   */
  | { status: "released" };

export interface FinishedClaim {
  row: ClaimedEmail;
  outcome: ClaimOutcome;
}

/** The row's new values for every outcome but "sent", which finishClaims records per batch. */
function outcomeValues(
  row: ClaimedEmail,
  outcome: Exclude<ClaimOutcome, { status: "sent" }>,
): Updateable<EmailOutboxTable> {
  switch (outcome.status) {
    case "retry":
      return { status: "pending", last_error: truncate(outcome.error), next_attempt_at: outcome.nextAttemptAt };
    case "failed":
      return { status: "failed", last_error: truncate(outcome.error) };
    case "unsent":
      return { status: "unsent", last_error: outcome.reason };
    case "released":
      return { status: "pending", attempts: Math.max(0, row.attempts - 1), next_attempt_at: nowIso() };
  }
}

/**
 * Ends claims, all in one transaction (one commit, so one fsync on SQLite, for a whole
 * batch of sends). Matching the lease value makes each write a compare-and-set: a
 * worker whose lease expired and was taken over writes nothing for that row (false
 * at its index in the result). Sent emails, nearly all of them, are recorded with
 * one statement per lease (per claimed batch) rather than one per email.
 */
export async function finishClaims(db: Kysely<Database>, claims: readonly FinishedClaim[]): Promise<boolean[]> {
  if (claims.length === 0) return [];
  return db.transaction().execute(async (trx) => {
    const recordedIds = new Set<string>();
    const sentByLease = new Map<string, SentEmail[]>();
    for (const { row, outcome } of claims) {
      if (outcome.status === "sent") {
        const group = sentByLease.get(row.lease_expires_at) ?? [];
        group.push({ id: row.id, messageId: outcome.messageId });
        sentByLease.set(row.lease_expires_at, group);
        continue;
      }
      const result = await trx
        .updateTable("email_outbox")
        .set({ ...outcomeValues(row, outcome), lease_expires_at: null })
        .where("id", "=", row.id)
        .where("status", "=", "sending")
        .where("lease_expires_at", "=", row.lease_expires_at)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) recordedIds.add(row.id);
    }
    for (const [lease, sent] of sentByLease) {
      for (let start = 0; start < sent.length; start += SENT_PER_STATEMENT) {
        const [first, ...rest] = sent.slice(start, start + SENT_PER_STATEMENT) as [SentEmail, ...SentEmail[]];
        const updated = await trx
          .updateTable("email_outbox")
          .set((eb) => {
            // Each row's own Message-ID, in the one statement.
            let messageId = eb.case("id").when(first.id).then(first.messageId);
            for (const email of rest) messageId = messageId.when(email.id).then(email.messageId);
            return {
              status: "sent",
              sent_at: nowIso(),
              message_id: messageId.end(),
              last_error: null,
              lease_expires_at: null,
            };
          })
          .where("id", "in", [first.id, ...rest.map((email) => email.id)])
          .where("status", "=", "sending")
          .where("lease_expires_at", "=", lease)
          .returning("id")
          .execute();
        for (const { id } of updated) recordedIds.add(id);
      }
    }
    return claims.map(({ row }) => recordedIds.has(row.id));
  });
}

interface SentEmail {
  id: string;
  messageId: string;
}

/** Sent emails per UPDATE: two parameters each in the CASE, one in the IN list. */
const SENT_PER_STATEMENT = 200;

function truncate(text: string): string {
  return text.length > 1000 ? `${text.slice(0, 999)}…` : text;
}
