import type { Kysely, Selectable } from "kysely";
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

/**
 * Claims up to `limit` due messages (pending and due, or sending with an expired lease)
 * for `leaseMs`, counting one attempt each. The UPDATE repeats the due condition, so of
 * two workers that saw the same rows only one gets each.
 */
export async function claimDueSms(
  db: Kysely<Database>,
  options: { now: string; leaseMs: number; limit: number },
): Promise<ClaimedSms[]> {
  const { now } = options;
  const candidates = await db
    .selectFrom("sms_outbox")
    .select("id")
    .where((eb) =>
      eb.or([
        eb.and([eb("status", "=", "pending"), eb("next_attempt_at", "<=", now)]),
        eb.and([eb("status", "=", "sending"), eb("lease_expires_at", "<=", now)]),
      ]),
    )
    .orderBy("next_attempt_at")
    .limit(options.limit)
    .execute();
  if (candidates.length === 0) return [];
  const lease = new Date(Math.max(Date.now(), Date.parse(now)) + options.leaseMs).toISOString();
  const rows = await db
    .updateTable("sms_outbox")
    .set((eb) => ({ status: "sending", lease_expires_at: lease, attempts: eb("attempts", "+", 1) }))
    .where(
      "id",
      "in",
      candidates.map((candidate) => candidate.id),
    )
    .where((eb) =>
      eb.or([
        eb.and([eb("status", "=", "pending"), eb("next_attempt_at", "<=", now)]),
        eb.and([eb("status", "=", "sending"), eb("lease_expires_at", "<=", now)]),
      ]),
    )
    .returningAll()
    .execute();
  return rows as ClaimedSms[];
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
