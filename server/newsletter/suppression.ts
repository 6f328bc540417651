import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { newId } from "../ids.ts";

/** The suppression list: addresses that never receive any email. */

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function isSuppressed(db: Kysely<Database>, email: string): Promise<boolean> {
  return (await suppressedAmong(db, [email])).size > 0;
}

/** Which of these addresses are suppressed, normalized (one query for a batch of emails). */
export async function suppressedAmong(db: Kysely<Database>, emails: readonly string[]): Promise<Set<string>> {
  const normalized = [...new Set(emails.map(normalizeEmail))];
  if (normalized.length === 0) return new Set();
  const rows = await db
    .selectFrom("newsletter_suppressions")
    .select("email")
    .where("email", "in", normalized)
    .execute();
  return new Set(rows.map((row) => row.email));
}

/** Adds the address (once: a second call keeps the first reason). */
export async function addSuppression(db: Kysely<Database>, email: string, reason: string): Promise<void> {
  await db
    .insertInto("newsletter_suppressions")
    .values({ id: newId("suppression"), email: normalizeEmail(email), reason: reason.slice(0, 1000) })
    .onConflict((conflict) => conflict.column("email").doNothing())
    .execute();
}

export const SUPPRESSED_REASON = "Not sent: the address is on the suppression list";

/** The mail worker's send-time check (refuseRecipients): the emails whose address is suppressed. */
export async function refuseSuppressed(
  db: Kysely<Database>,
  emails: readonly { id: string; to_address: string }[],
): Promise<Map<string, string>> {
  const suppressed = await suppressedAmong(
    db,
    emails.map((email) => email.to_address),
  );
  return new Map(
    emails
      .filter((email) => suppressed.has(normalizeEmail(email.to_address)))
      .map((email) => [email.id, SUPPRESSED_REASON]),
  );
}
