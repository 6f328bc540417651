import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  confirmPhoneEnrolment,
  confirmTotpEnrolment,
  startPhoneEnrolment,
  startTotpEnrolment,
  WRONG_CODE_MESSAGE,
} from "../../server/auth/account-changes.ts";
import { callAuth } from "../../server/auth/handler-calls.ts";
import { signInRefusal } from "../../server/auth/sign-in-guard.ts";
import { createUser } from "../../server/auth/users.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import {
  type Accounts,
  freshIp,
  incomingRequest,
  lastText,
  openAccounts,
  passwordStep,
  refusal,
  STRONG_PASSWORD,
  signIn,
  totp,
  visitorFor,
  withAuthenticator,
} from "./accounts-fixture.ts";

/**
 * Wrong codes at a sign-in's second step, through Better Auth's handler as the sign-in
 * page calls it: each leaves an `auth.second-factor-failed` row with its user, and none
 * of them counts toward the password lock.
 */

const SESSION_COOKIE_SET = /^(?:__Secure-)?bastion\.session_token=[^;]/;

/** A six-digit code that is none of the codes an authenticator app would accept around now. */
function wrongTotp(secret: string): string {
  const accepted = new Set([-1, 0, 1].map((step) => totp(secret, Date.now() + step * 30_000)));
  for (let n = 0; ; n += 1) {
    const code = String(n).padStart(6, "0");
    if (!accepted.has(code)) return code;
  }
}

describe.each(TEST_DIALECTS)("failed second-factor attempts on %s", (dialect) => {
  let accounts: Accounts;

  beforeAll(async () => {
    accounts = await openAccounts(dialect);
  });
  afterAll(async () => {
    await accounts?.close();
  });

  const verify = (challenge: string, path: string, code: string) =>
    callAuth(accounts.services, incomingRequest({ cookie: challenge, ip: freshIp() }), path, { code });

  async function failures(userId: string | null) {
    let query = accounts.services.db
      .selectFrom("audit_log")
      .select(["user_id", "entity", "entity_id", "details"])
      .where("action", "=", "auth.second-factor-failed")
      .orderBy("at");
    query = userId === null ? query.where("user_id", "is", null) : query.where("user_id", "=", userId);
    const rows = await query.execute();
    return rows.map((row) => ({ ...row, details: row.details as { method?: string; reason?: string } }));
  }

  it("records a wrong authenticator code at sign-in once, outside the password lock, and none while signed in; the right code still signs in", async () => {
    const email = "gwen@example.test";
    const user = await createUser(accounts.services, { email, password: STRONG_PASSWORD, role: "editor", via: "test" });
    const { cookie } = await signIn(accounts, email, STRONG_PASSWORD);
    const { secret } = await startTotpEnrolment(await visitorFor(accounts, cookie as string), STRONG_PASSWORD);
    // A wrong code while signed in, confirming the enrolment, is no sign-in attempt.
    const refused = await refusal(
      confirmTotpEnrolment(await visitorFor(accounts, cookie as string), wrongTotp(secret)),
    );
    expect(refused.fields).toEqual({ code: WRONG_CODE_MESSAGE });
    await confirmTotpEnrolment(await visitorFor(accounts, cookie as string), totp(secret));
    expect(await failures(user.id)).toEqual([]);

    const challenge = await passwordStep(accounts, email);

    const wrong = await verify(challenge, "/two-factor/verify-totp", wrongTotp(secret));
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe("INVALID_CODE");
    expect(await failures(user.id)).toEqual([
      {
        user_id: user.id,
        entity: "user",
        entity_id: user.id,
        details: expect.objectContaining({ method: "/two-factor/verify-totp", reason: "INVALID_CODE" }),
      },
    ]);
    const passwordFailures = await accounts.services.db
      .selectFrom("audit_log")
      .select("id")
      .where("action", "=", "auth.sign-in-failed")
      .execute();
    expect(passwordFailures).toEqual([]);
    expect(await signInRefusal(accounts.services.db, email, freshIp())).toBeNull();

    const right = await verify(challenge, "/two-factor/verify-totp", totp(secret));
    expect(right.status).toBe(200);
    expect(right.cookies.some((value) => SESSION_COOKIE_SET.test(value))).toBe(true);
    expect(await failures(user.id)).toHaveLength(1);
    expect(await failures(null)).toEqual([]);
  });

  it("records every wrong code, backup or texted, with its user, even the one that uses the challenge up", async () => {
    const email = "gideon@example.test";
    const { user, secret } = await withAuthenticator(accounts, email);
    const challenge = await passwordStep(accounts, email);

    expect((await verify(challenge, "/two-factor/verify-backup-code", "not-a-backup-code")).status).toBe(401);
    for (let attempt = 0; attempt < 4; attempt += 1) {
      expect((await verify(challenge, "/two-factor/verify-totp", wrongTotp(secret))).status).toBe(401);
    }
    // Five wrong codes: the challenge is deleted with this refusal, and its user still known.
    const usedUp = await verify(challenge, "/two-factor/verify-totp", wrongTotp(secret));
    expect(usedUp.body.code).toBe("TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE");
    // Sorted: rows written within the same millisecond have no order.
    const rows = (await failures(user.id)).map((row) => `${row.details.method} ${row.details.reason}`).sort();
    expect(rows).toEqual([
      "/two-factor/verify-backup-code INVALID_BACKUP_CODE",
      ...Array(4).fill("/two-factor/verify-totp INVALID_CODE"),
      "/two-factor/verify-totp TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE",
    ]);

    // A texted code.
    const phoneEmail = "gemma@example.test";
    const phoneUser = await createUser(accounts.services, {
      email: phoneEmail,
      password: STRONG_PASSWORD,
      role: "editor",
      via: "test",
    });
    const { cookie } = await signIn(accounts, phoneEmail, STRONG_PASSWORD);
    const phone = await startPhoneEnrolment(await visitorFor(accounts, cookie as string), {
      password: STRONG_PASSWORD,
      phoneNumber: "+44 7700 900777",
    });
    await confirmPhoneEnrolment(await visitorFor(accounts, cookie as string), (await lastText(accounts, phone)).code);
    const phoneChallenge = await passwordStep(accounts, phoneEmail);
    expect(
      (
        await callAuth(
          accounts.services,
          incomingRequest({ cookie: phoneChallenge, ip: freshIp() }),
          "/two-factor/send-otp",
          {},
        )
      ).status,
    ).toBe(200);
    const sent = (await lastText(accounts, phone)).code;
    const wrongText = String((Number(sent) + 1) % 1_000_000).padStart(6, "0");
    expect((await verify(phoneChallenge, "/two-factor/verify-otp", wrongText)).status).toBe(401);
    expect((await failures(phoneUser.id)).map((row) => row.details.method)).toEqual(["/two-factor/verify-otp"]);
  });
});
