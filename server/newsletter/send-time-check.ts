import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { normalizeEmail, refuseSuppressed } from "./suppression.ts";

/**
 * What the mail worker asks just before it sends (its refuseRecipients). An email is
 * queued at one moment and sent at another, up to a retry's hour later, or after an
 * admin's retry of one held without SMTP: by then its address may be suppressed, and a
 * subscriber's mail may have lost its subscriber (unsubscribed, deleted).
 */

/** Mail that only an active subscriber receives; a confirmation goes to a pending one. */
const SUBSCRIBER_MAIL_KINDS = new Set(["notification", "newsletter-welcome"]);

export const NOT_SUBSCRIBED_REASON = "Not sent: the address is no longer subscribed";

/** The emails not to send, by row id, with the reason each is marked failed. */
export async function refuseUnwantedRecipients(
  db: Kysely<Database>,
  emails: readonly { id: string; kind: string; to_address: string }[],
): Promise<Map<string, string>> {
  const refusals = await refuseSuppressed(db, emails);
  const subscriberMail = emails.filter((email) => SUBSCRIBER_MAIL_KINDS.has(email.kind) && !refusals.has(email.id));
  if (subscriberMail.length === 0) return refusals;
  const addresses = [...new Set(subscriberMail.map((email) => normalizeEmail(email.to_address)))];
  const active = await db
    .selectFrom("newsletter_subscribers")
    .select("email")
    .where("status", "=", "active")
    .where("email", "in", addresses)
    .execute();
  const subscribed = new Set(active.map((row) => normalizeEmail(row.email)));
  for (const email of subscriberMail) {
    if (!subscribed.has(normalizeEmail(email.to_address))) refusals.set(email.id, NOT_SUBSCRIBED_REASON);
  }
  return refusals;
}
