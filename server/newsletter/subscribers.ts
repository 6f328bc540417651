import type { Kysely } from "kysely";
import type { CONSENT_SOURCES, Database } from "../db/schema.ts";
import { NotFound } from "../errors.ts";
import { newId } from "../ids.ts";
import { closeActivePeriod, openActivePeriod } from "./active-periods.ts";
import { type EmailDeps, enqueueConfirmationEmail, enqueueWelcomeEmail } from "./emails.ts";
import { isSuppressed, normalizeEmail } from "./suppression.ts";
import {
  CONFIRMATION_TOKEN_TTL_MS,
  hashIp,
  hashToken,
  newConfirmationToken,
  verifyUnsubscribeToken,
} from "./tokens.ts";

/**
 * The newsletter_subscribers table's only writer: subscribing, confirming,
 * unsubscribing, a bounce's mark and an admin's delete. Each change in or out of
 * `active` also opens or closes a period in newsletter_active_periods
 * (active-periods.ts), in the same transaction. Every answer to a subscribe
 * is the same whatever the address's state (no enumeration); what happens depends on it:
 * new or unsubscribed (or bounced, once no longer suppressed) → pending with a fresh
 * confirmation email; pending → a new confirmation email at most once per 5 minutes;
 * active → nothing; suppressed → nothing, no email.
 */

const CONFIRMATION_RESEND_INTERVAL_MS = 5 * 60 * 1000;
export type ConsentSource = (typeof CONSENT_SOURCES)[number];

export interface SubscribeInput {
  email: string;
  source: ConsentSource;
  /** The client's IP, only ever stored as a keyed hash. */
  ip: string;
}

export type SubscribeOutcome = "pending" | "resent" | "throttled" | "active" | "suppressed";

export async function subscribe(
  db: Kysely<Database>,
  deps: EmailDeps,
  input: SubscribeInput,
  now = new Date(),
): Promise<SubscribeOutcome> {
  const email = normalizeEmail(input.email);
  const nowIso = now.toISOString();
  return db.transaction().execute(async (trx) => {
    if (await isSuppressed(trx, email)) return "suppressed";
    const existing = await trx
      .selectFrom("newsletter_subscribers")
      .select(["id", "status", "last_confirmation_sent_at", "confirmation_token_hash"])
      .where("email", "=", email)
      .executeTakeFirst();
    if (existing?.status === "active") return "active";
    if (
      existing?.status === "pending" &&
      existing.last_confirmation_sent_at &&
      now.getTime() - new Date(existing.last_confirmation_sent_at).getTime() < CONFIRMATION_RESEND_INTERVAL_MS
    ) {
      return "throttled";
    }
    const { token, hash } = newConfirmationToken();
    const fields = {
      status: "pending" as const,
      confirmation_token_hash: hash,
      confirmation_expires_at: new Date(now.getTime() + CONFIRMATION_TOKEN_TTL_MS).toISOString(),
      last_confirmation_sent_at: nowIso,
      consent_at: nowIso,
      consent_source: input.source,
      consent_ip_hash: hashIp(deps.secret, input.ip),
      updated_at: nowIso,
    };
    let id: string;
    if (existing) {
      id = existing.id;
      // A compare-and-set on what was read: of two requests for this address at once
      // (a double click, two instances), only the first replaces the token and sends
      // an email. The second, with its own, would leave the first email's link dead.
      const updated = await trx
        .updateTable("newsletter_subscribers")
        .set({
          ...fields,
          ...(existing.status === "pending"
            ? {}
            : { subscribed_at: nowIso, unsubscribed_at: null, confirmed_at: null }),
        })
        .where("id", "=", id)
        .where("status", "=", existing.status)
        .where((eb) =>
          existing.confirmation_token_hash === null
            ? eb("confirmation_token_hash", "is", null)
            : eb("confirmation_token_hash", "=", existing.confirmation_token_hash),
        )
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return "throttled";
      // Pending again: whatever active period the row still had is over.
      if (existing.status !== "pending") await closeActivePeriod(trx, id, nowIso);
    } else {
      id = newId("subscriber");
      const inserted = await trx
        .insertInto("newsletter_subscribers")
        .values({ id, email, subscribed_at: nowIso, ...fields })
        .onConflict((conflict) => conflict.column("email").doNothing())
        .returning("id")
        .executeTakeFirst();
      // A concurrent request for the same address won: it sends the email.
      if (!inserted) return "throttled";
    }
    await enqueueConfirmationEmail(trx, deps, { id, email }, token, hash);
    return existing?.status === "pending" ? "resent" : "pending";
  });
}

export type ResendOutcome = "sent" | "not-pending" | "suppressed";

/**
 * Admin "resend confirmation": only for pending subscribers, ignores the 5-minute limit.
 * A suppressed address gets no email, and then keeps its token: a new one would
 * silently void the link it was sent before, for a resend that did not happen.
 */
export async function resendConfirmation(
  db: Kysely<Database>,
  deps: EmailDeps,
  subscriberId: string,
  now = new Date(),
): Promise<ResendOutcome> {
  return db.transaction().execute(async (trx): Promise<ResendOutcome> => {
    const row = await trx
      .selectFrom("newsletter_subscribers")
      .select(["id", "email", "status"])
      .where("id", "=", subscriberId)
      .executeTakeFirst();
    if (row?.status !== "pending") return "not-pending";
    if (await isSuppressed(trx, row.email)) return "suppressed";
    const { token, hash } = newConfirmationToken();
    const nowIso = now.toISOString();
    await trx
      .updateTable("newsletter_subscribers")
      .set({
        confirmation_token_hash: hash,
        confirmation_expires_at: new Date(now.getTime() + CONFIRMATION_TOKEN_TTL_MS).toISOString(),
        last_confirmation_sent_at: nowIso,
        updated_at: nowIso,
      })
      .where("id", "=", row.id)
      .execute();
    return (await enqueueConfirmationEmail(trx, deps, row, token, hash)) ? "sent" : "suppressed";
  });
}

const CONFIRM_INVALID_MESSAGE = "This confirmation link is invalid or has expired. Please subscribe again.";

export type ConfirmResult = { success: true; alreadyConfirmed: boolean } | { success: false; error: string };

/**
 * pending → active with the welcome email. Idempotent: the same token again, while
 * the subscriber is still active, answers success and changes nothing. The token
 * cannot bring back a subscriber who has since unsubscribed (its hash is cleared).
 */
export async function confirmSubscription(
  db: Kysely<Database>,
  deps: EmailDeps,
  token: string,
  now = new Date(),
): Promise<ConfirmResult> {
  const hash = hashToken(token);
  return db.transaction().execute(async (trx): Promise<ConfirmResult> => {
    const row = await trx
      .selectFrom("newsletter_subscribers")
      .select(["id", "email", "status", "confirmation_expires_at"])
      .where("confirmation_token_hash", "=", hash)
      .executeTakeFirst();
    if (!row) return { success: false, error: CONFIRM_INVALID_MESSAGE };
    if (row.status === "active") return { success: true, alreadyConfirmed: true };
    if (row.status !== "pending") return { success: false, error: CONFIRM_INVALID_MESSAGE };
    if (!row.confirmation_expires_at || new Date(row.confirmation_expires_at).getTime() <= now.getTime()) {
      return { success: false, error: CONFIRM_INVALID_MESSAGE };
    }
    const nowIso = now.toISOString();
    const updated = await trx
      .updateTable("newsletter_subscribers")
      .set({ status: "active", confirmed_at: nowIso, updated_at: nowIso })
      .where("id", "=", row.id)
      .where("status", "=", "pending")
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return { success: true, alreadyConfirmed: true };
    await openActivePeriod(trx, row.id, nowIso);
    await enqueueWelcomeEmail(trx, deps, { id: row.id, email: row.email, confirmed_at: nowIso });
    return { success: true, alreadyConfirmed: false };
  });
}

const UNSUBSCRIBE_INVALID_MESSAGE = "This unsubscribe link is invalid.";
export const UNSUBSCRIBED_MESSAGE = "You have been unsubscribed.";

export type UnsubscribeResult = { success: true } | { success: false; error: string };

/** Any status → unsubscribed (a bounced address stays bounced). Idempotent. */
export async function unsubscribeWithToken(
  db: Kysely<Database>,
  secret: string,
  token: string,
  now = new Date(),
): Promise<UnsubscribeResult> {
  const subscriberId = verifyUnsubscribeToken(secret, token);
  if (!subscriberId) return { success: false, error: UNSUBSCRIBE_INVALID_MESSAGE };
  return db.transaction().execute(async (trx): Promise<UnsubscribeResult> => {
    const row = await trx
      .selectFrom("newsletter_subscribers")
      .select(["id", "status"])
      .where("id", "=", subscriberId)
      .executeTakeFirst();
    // Deleted by an admin: nothing left to unsubscribe, which is what was asked.
    if (!row) return { success: true };
    const nowIso = now.toISOString();
    const updated = await trx
      .updateTable("newsletter_subscribers")
      .set({
        ...(row.status === "bounced" ? {} : { status: "unsubscribed" as const }),
        unsubscribed_at: nowIso,
        confirmation_token_hash: null,
        confirmation_expires_at: null,
        updated_at: nowIso,
      })
      .where("id", "=", row.id)
      .where("status", "!=", "unsubscribed")
      .executeTakeFirst();
    // A bounced subscriber's period already ended with the bounce, and stays so.
    if (Number(updated.numUpdatedRows) > 0) await closeActivePeriod(trx, row.id, nowIso);
    return { success: true };
  });
}

/**
 * The address bounced for good (bounces.ts decides when): the subscriber is `bounced`,
 * their active period ends and their confirmation link stops working. A subscriber
 * already bounced keeps the date they bounced on. `db` is the caller's transaction.
 */
export async function markBounced(db: Kysely<Database>, email: string, now = new Date()): Promise<void> {
  const nowIso = now.toISOString();
  const bounced = await db
    .updateTable("newsletter_subscribers")
    .set((eb) => ({
      status: "bounced",
      confirmation_token_hash: null,
      bounced_at: eb
        .case()
        .when("status", "=", "bounced")
        .then(eb.fn.coalesce("bounced_at", eb.val(nowIso)))
        .else(eb.val(nowIso))
        .end(),
      updated_at: nowIso,
    }))
    .where("email", "=", normalizeEmail(email))
    .returning("id")
    .executeTakeFirst();
  if (bounced) await closeActivePeriod(db, bounced.id, nowIso);
}

/**
 * Removes the subscriber for good, their active periods with them (ON DELETE CASCADE);
 * NotFound when there is none with this id (any more).
 */
export async function deleteSubscriber(db: Kysely<Database>, id: string): Promise<void> {
  const result = await db.deleteFrom("newsletter_subscribers").where("id", "=", id).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new NotFound("This subscriber no longer exists.");
}
