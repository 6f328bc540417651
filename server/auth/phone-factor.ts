import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { Conflict } from "../errors.ts";
import { SITE_NAME } from "../site.ts";
import { countSmsSince, enqueueSms } from "../sms/outbox.ts";
import { PHONE_CODE_MINUTES } from "./phone-code-period.ts";

/**
 * The phone as a second factor: the only module that writes `phone_factors`. An
 * account has at most one number; it is pending until a code texted to it is entered,
 * and only then asked for at sign-in. The codes are Better Auth's two-factor OTPs
 * (stored hashed, single-use, expiring after PHONE_CODE_MINUTES); this module decides
 * where they go and how many may be sent. phone-factor-endpoints.ts plugs it into
 * Better Auth.
 */

/** Texts per number and per account: enough for a slow network, too few to run up a bill or flood a phone. */
export const SMS_LIMITS = {
  perNumber: { max: 3, windowMinutes: 15 },
  perAccount: { max: 6, windowMinutes: 60 },
} as const;

export interface PhoneFactor {
  /** E.164. */
  phoneNumber: string;
  /** Confirmed by a code, so asked for at sign-in. */
  verified: boolean;
}

export async function findPhoneFactor(db: Kysely<Database>, userId: string): Promise<PhoneFactor | null> {
  const row = await db
    .selectFrom("phone_factors")
    .select(["phone_number", "verified_at"])
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row ? { phoneNumber: row.phone_number, verified: row.verified_at !== null } : null;
}

/** Sets the number a code is about to confirm (replacing a pending one); a confirmed one must be removed first. */
export async function setPendingPhoneNumber(db: Kysely<Database>, userId: string, phoneNumber: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const existing = await findPhoneFactor(trx, userId);
    if (existing?.verified) throw new Conflict("A phone number is already set up. Remove it before adding another.");
    await trx
      .insertInto("phone_factors")
      .values({ user_id: userId, phone_number: phoneNumber, verified_at: null, created_at: new Date().toISOString() })
      .onConflict((conflict) =>
        conflict.column("user_id").doUpdateSet({
          phone_number: phoneNumber,
          verified_at: null,
          created_at: new Date().toISOString(),
        }),
      )
      .execute();
  });
}

/** Confirms the pending number; false when there was none (a code checked again later is no change). */
export async function confirmPhoneFactor(db: Kysely<Database>, userId: string): Promise<boolean> {
  const result = await db
    .updateTable("phone_factors")
    .set({ verified_at: new Date().toISOString() })
    .where("user_id", "=", userId)
    .where("verified_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Removes the number, pending or confirmed; false when there was none. */
export async function removePhoneFactor(db: Kysely<Database>, userId: string): Promise<boolean> {
  const result = await db.deleteFrom("phone_factors").where("user_id", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Why no code may be texted now (a send limit is reached), or null. */
export async function smsLimitProblem(
  db: Kysely<Database>,
  userId: string,
  phoneNumber: string,
): Promise<string | null> {
  const since = (minutes: number) => new Date(Date.now() - minutes * 60_000);
  const { perNumber, perAccount } = SMS_LIMITS;
  if ((await countSmsSince(db, { to: phoneNumber }, since(perNumber.windowMinutes))) >= perNumber.max) {
    return `Too many codes were sent to this number. Try again in ${perNumber.windowMinutes} minutes.`;
  }
  if ((await countSmsSince(db, { userId }, since(perAccount.windowMinutes))) >= perAccount.max) {
    return `Too many codes were sent for this account. Try again in ${perAccount.windowMinutes} minutes.`;
  }
  return null;
}

/**
 * Writes the text carrying a code to the account's number (the outbox sends it), within
 * the send limits. They are counted again here, under the write locks of every row for
 * this number: the endpoint's earlier check answers with the reason, but concurrent
 * requests (on any instance, for any account with this number) would each find room
 * for one more text there. A request that finds none here sends nothing, and throws.
 */
export async function queuePhoneCode(
  db: Kysely<Database>,
  input: { userId: string; code: string; purpose: "sign-in" | "confirm" },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const factor = await findPhoneFactor(trx, input.userId);
    if (!factor) throw new Error(`No phone number to text a code to for user ${input.userId}.`);
    // A no-op update takes the rows' write locks (SELECT … FOR UPDATE is PostgreSQL-only).
    await trx
      .updateTable("phone_factors")
      .set((eb) => ({ created_at: eb.ref("created_at") }))
      .where("phone_number", "=", factor.phoneNumber)
      .execute();
    const problem = await smsLimitProblem(trx, input.userId, factor.phoneNumber);
    if (problem) throw new Error(`No code texted for user ${input.userId}: ${problem}`);
    const use = input.purpose === "sign-in" ? "sign-in code" : "code to confirm this phone number";
    await enqueueSms(trx, {
      kind: "two-factor-code",
      userId: input.userId,
      to: factor.phoneNumber,
      body: `${input.code} is your ${SITE_NAME} ${use}. It expires in ${PHONE_CODE_MINUTES} minutes. Never share it.`,
      expiresAt: new Date(Date.now() + PHONE_CODE_MINUTES * 60_000),
    });
  });
}
