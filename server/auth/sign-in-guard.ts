import type { Kysely } from "kysely";
import { countFailedSignIns, recordAudit } from "../audit/audit-log.ts";
import type { Database } from "../db/schema.ts";
import { currentHits, hitLimit, limitedAddress } from "../request-limits.ts";

/**
 * Password guessing against one account, on top of Better Auth's per-address limit
 * (5 attempts a minute). A lock that anyone could trigger would be a weapon: ten wrong
 * passwords from anywhere would keep the owner out. So the tight limit is per account
 * AND address (the guesser's own address is locked, the owner's is not), and the limit
 * per account alone is far looser and spares accounts with a second factor, whose
 * password alone opens nothing. Passkey sign-in never passes through here.
 */

export const PAIR_FAILURE_LIMIT = 10;
export const PAIR_FAILURE_WINDOW_MS = 15 * 60 * 1000;
export const ACCOUNT_FAILURE_LIMIT = 100;
export const ACCOUNT_FAILURE_WINDOW_MS = 60 * 60 * 1000;

export const PAIR_LOCKED_MESSAGE = "Too many failed sign-in attempts for this account. Try again in 15 minutes.";
export const ACCOUNT_LOCKED_MESSAGE =
  "Password sign-in to this account is paused after many failed attempts from several places. Sign in with a passkey, or try again in an hour.";

const pairKey = (email: string, ip: string) => `sign-in-failures:${email}|${limitedAddress(ip)}`;

/** Why a password sign-in must be refused before checking the password, or null. */
export async function signInRefusal(db: Kysely<Database>, email: string, ip: string): Promise<string | null> {
  if ((await currentHits(db, pairKey(email, ip), PAIR_FAILURE_WINDOW_MS)) >= PAIR_FAILURE_LIMIT) {
    return PAIR_LOCKED_MESSAGE;
  }
  const since = new Date(Date.now() - ACCOUNT_FAILURE_WINDOW_MS).toISOString();
  if ((await countFailedSignIns(db, email, since)) < ACCOUNT_FAILURE_LIMIT) return null;
  return (await hasSecondFactor(db, email)) ? null : ACCOUNT_LOCKED_MESSAGE;
}

export async function recordFailedSignIn(db: Kysely<Database>, email: string, ip: string): Promise<void> {
  await hitLimit(db, pairKey(email, ip), Number.MAX_SAFE_INTEGER, PAIR_FAILURE_WINDOW_MS);
  await recordAudit(db, {
    userId: null,
    action: "auth.sign-in-failed",
    entity: "account",
    entityId: email,
    details: { ip },
  });
}

async function hasSecondFactor(db: Kysely<Database>, email: string): Promise<boolean> {
  // Better Auth's user table is not in the app's schema types: the columns read here.
  const user = await db
    .withTables<{ user: { email: string; twoFactorEnabled: boolean | number | null } }>()
    .selectFrom("user")
    .select("twoFactorEnabled")
    .where("email", "=", email)
    .executeTakeFirst();
  return Boolean(user?.twoFactorEnabled);
}
