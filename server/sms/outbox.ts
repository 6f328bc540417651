import type { ExpressionBuilder, Kysely, Selectable } from "kysely";
import type { Database, SmsOutboxTable } from "../db/schema.ts";
import { newId } from "../ids.ts";

/**
 * The durable outbox of text messages, as email_outbox is for email: the only module
 * that writes `sms_outbox`. A message is written before the request that causes it
 * answers, then the SMS worker claims due rows with a lease (several instances never
 * send one twice) and records how each send went. A message carries a short-lived
 * code: it is not sent after `expires_at`, and its text is cleared once a provider has
 * taken it or it has failed. Without a provider (the embedded default) the text stays
 * in the row, marked unsent, for a local user (and the tests) to read.
 */

export type SmsRow = Selectable<SmsOutboxTable>;
export type ClaimedSms = SmsRow & { status: "sending"; lease_expires_at: string; body: string };

export interface NewSms {
  kind: string;
  userId: string | null;
  to: string;
  body: string;
  expiresAt: Date;
}

const nowIso = () => new Date().toISOString();

export async function enqueueSms(db: Kysely<Database>, sms: NewSms): Promise<string> {
  const id = newId("sms");
  await db
    .insertInto("sms_outbox")
    .values({
      id,
      kind: sms.kind,
      user_id: sms.userId,
      to_number: sms.to,
      body: sms.body,
      next_attempt_at: nowIso(),
      expires_at: sms.expiresAt.toISOString(),
    })
    .execute();
  return id;
}

/** Messages written since `since`: to one number, or for one account (for the send limits). */
export async function countSmsSince(
  db: Kysely<Database>,
  filter: { to: string } | { userId: string },
  since: Date,
): Promise<number> {
  let query = db
    .selectFrom("sms_outbox")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("created_at", ">=", since.toISOString());
  query = "to" in filter ? query.where("to_number", "=", filter.to) : query.where("user_id", "=", filter.userId);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Pending and due, or sending with an expired lease (a crashed worker's). */
const due = (now: string) => (eb: ExpressionBuilder<Database, "sms_outbox">) =>
  eb.or([
    eb.and([eb("status", "=", "pending"), eb("next_attempt_at", "<=", now)]),
    eb.and([eb("status", "=", "sending"), eb("lease_expires_at", "<=", now)]),
  ]);

/**
 * Claims the oldest due message for `leaseMs`, counting one attempt, or returns
 * undefined when none is due. The UPDATE repeats the due condition, so of two workers
 * that saw the same row only one gets it; the other looks for the next.
 */
export async function claimNextSms(db: Kysely<Database>, leaseMs: number): Promise<ClaimedSms | undefined> {
  for (;;) {
    const now = nowIso();
    const candidate = await db
      .selectFrom("sms_outbox")
      .select("id")
      .where(due(now))
      .orderBy("next_attempt_at")
      .limit(1)
      .executeTakeFirst();
    if (!candidate) return undefined;
    const claimed = await db
      .updateTable("sms_outbox")
      .set((eb) => ({
        status: "sending",
        lease_expires_at: new Date(Date.parse(now) + leaseMs).toISOString(),
        attempts: eb("attempts", "+", 1),
      }))
      .where("id", "=", candidate.id)
      .where(due(now))
      .returningAll()
      .executeTakeFirst();
    if (claimed) return claimed as ClaimedSms;
  }
}

export type SmsOutcome =
  | { status: "sent" }
  | { status: "retry"; error: string; nextAttemptAt: string }
  | { status: "failed"; error: string }
  | { status: "unsent"; reason: string };

/**
 * Records how a claimed message ended. Matching the lease makes the write a
 * compare-and-set: a worker whose lease was taken over writes nothing (false).
 */
export async function finishSms(db: Kysely<Database>, row: ClaimedSms, outcome: SmsOutcome): Promise<boolean> {
  const values =
    outcome.status === "sent"
      ? { status: "sent" as const, sent_at: nowIso(), body: null, last_error: null }
      : outcome.status === "retry"
        ? { status: "pending" as const, next_attempt_at: outcome.nextAttemptAt, last_error: truncate(outcome.error) }
        : outcome.status === "failed"
          ? { status: "failed" as const, body: null, last_error: truncate(outcome.error) }
          : { status: "unsent" as const, last_error: outcome.reason };
  const result = await db
    .updateTable("sms_outbox")
    .set({ ...values, lease_expires_at: null })
    .where("id", "=", row.id)
    .where("status", "=", "sending")
    .where("lease_expires_at", "=", row.lease_expires_at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

function truncate(text: string): string {
  return text.length > 1000 ? `${text.slice(0, 999)}…` : text;
}
