import { type Kysely, sql } from "kysely";
import type { Database } from "../db/schema.ts";
import { hitLimit } from "../request-limits.ts";

/**
 * The emailed password-reset links. Better Auth keeps each as a `verification` row
 * (`reset-password:{token}`, value = the user id) and consumes the one used; the rules
 * below are ours: a reset ends every other link of the account, and one address gets a
 * few reset emails an hour whoever asks and from wherever (the per-IP limit alone lets
 * many addresses flood one mailbox).
 */

export const RESET_EMAILS_PER_ADDRESS = 3;
export const RESET_EMAIL_WINDOW_MS = 60 * 60 * 1000;

/** Better Auth's verification table is not in the app's schema types: the columns used here. */
type VerificationTable = { verification: { identifier: string; value: string } };

export async function forgetPasswordResetLinks(db: Kysely<Database>, userId: string): Promise<void> {
  await db
    .withTables<VerificationTable>()
    .deleteFrom("verification")
    .where("value", "=", userId)
    .where(sql<boolean>`substr(identifier, 1, 15) = 'reset-password:'`)
    .execute();
}

/** Whether another reset email may go to this address now (counts this one). */
export async function mayEmailResetLink(db: Kysely<Database>, email: string): Promise<boolean> {
  const { allowed } = await hitLimit(
    db,
    `password-reset-email:${email.toLowerCase()}`,
    RESET_EMAILS_PER_ADDRESS,
    RESET_EMAIL_WINDOW_MS,
  );
  return allowed;
}
