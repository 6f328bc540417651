import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { NotFound } from "../errors.ts";
import { newId } from "../ids.ts";

/** The suppression list: addresses that never receive any email. The only writer of newsletter_suppressions. */

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function isSuppressed(db: Kysely<Database>, email: string): Promise<boolean> {
  return (await suppressedAmong(db, [email])).size > 0;
}

/** Which of these addresses are suppressed, normalized (one query for a batch of emails). */
async function suppressedAmong(db: Kysely<Database>, emails: readonly string[]): Promise<Set<string>> {
  const normalized = [...new Set(emails.map(normalizeEmail))];
  if (normalized.length === 0) return new Set();
  const rows = await db
    .selectFrom("newsletter_suppressions")
    .select("email")
    .where("email", "in", normalized)
    .execute();
  return new Set(rows.map((row) => row.email));
}

/**
 * Adds the address (normalized) to the list, by hand or after a bounce. An address
 * already on it keeps its entry and first reason: `created` is false then.
 */
export async function addSuppression(
  db: Kysely<Database>,
  input: { email: string; reason: string },
): Promise<{ created: boolean; email: string }> {
  const email = normalizeEmail(input.email);
  const result = await db
    .insertInto("newsletter_suppressions")
    .values({ id: newId("suppression"), email, reason: input.reason.trim().slice(0, 1000) })
    .onConflict((conflict) => conflict.column("email").doNothing())
    .executeTakeFirst();
  return { created: Number(result.numInsertedOrUpdatedRows ?? 0n) > 0, email };
}

/** Takes an address off the list; NotFound when the entry does not exist (any more). */
export async function removeSuppression(db: Kysely<Database>, id: string): Promise<void> {
  const result = await db.deleteFrom("newsletter_suppressions").where("id", "=", id).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new NotFound("This address is no longer on the suppression list.");
}

const SUPPRESSED_REASON = "Not sent: the address is on the suppression list";

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
