import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  confirmPhoneEnrolment,
  PHONE_CODE_EXPIRED_MESSAGE,
  removePhone,
  sendPhoneCode,
  startPhoneEnrolment,
  WRONG_PASSWORD_MESSAGE,
  WRONG_PHONE_CODE_MESSAGE,
} from "../../server/auth/account-changes.ts";
import { callAuth } from "../../server/auth/handler-calls.ts";
import { findPhoneFactor } from "../../server/auth/phone-factor.ts";
import { PHONE_ENROL_PATH, SIGN_IN_FACTORS_PATH } from "../../server/auth/phone-factor-endpoints.ts";
import { createUser } from "../../server/auth/users.ts";
import { RateLimited } from "../../server/errors.ts";
import { PHONE_NUMBER_MESSAGE } from "../../server/sms/phone-number.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import {
  type Accounts,
  freshIp,
  incomingRequest,
  lastText,
  openAccounts,
  PUBLIC_URL,
  passwordStep,
  refusal,
  STRONG_PASSWORD,
  signIn,
  visitorFor,
} from "./accounts-fixture.ts";

/**
 * The phone as a second factor through Better Auth's handler, as the account page and
 * the sign-in page call it: enrolment confirmed by a texted code, sign-in with a code,
 * codes that work once and expire, the send limits per number and per account, and
 * the factor's audit rows. Texts are read from the SMS outbox (no provider in tests).
 */

describe.each(TEST_DIALECTS)("the phone factor on %s", (dialect) => {
  let accounts: Accounts;

  beforeAll(async () => {
    accounts = await openAccounts(dialect);
  });
  afterAll(async () => {
    await accounts?.close();
  });

  async function newAccount(email: string) {
    const user = await createUser(accounts.services, { email, password: STRONG_PASSWORD, role: "editor", via: "test" });
    const { cookie } = await signIn(accounts, email, STRONG_PASSWORD);
    return { user, cookie: cookie as string };
  }

  async function textsTo(to: string): Promise<number> {
    const rows = await accounts.services.db.selectFrom("sms_outbox").select("id").where("to_number", "=", to).execute();
    return rows.length;
  }

  async function userRow(id: string) {
    const row = await sql<{
      twoFactorEnabled: unknown;
    }>`select ${sql.ref("twoFactorEnabled")} from ${sql.table("user")} where id = ${id}`.execute(accounts.services.db);
    return { twoFactorEnabled: Boolean(row.rows[0]?.twoFactorEnabled) };
  }

  async function audit(userId: string): Promise<string[]> {
    const rows = await accounts.services.db
      .selectFrom("audit_log")
      .select("action")
      .where("user_id", "=", userId)
      .orderBy("at")
      .execute();
    return rows.map((row) => row.action);
  }

  const asChallenge = (challenge: string) => incomingRequest({ cookie: challenge, ip: freshIp() });

  /** Enrols `phone` for a signed-in account and confirms it with the texted code. */
  async function enrol(cookie: string, phone: string) {
    const visitor = await visitorFor(accounts, cookie);
    const stored = await startPhoneEnrolment(visitor, { password: STRONG_PASSWORD, phoneNumber: phone });
    await confirmPhoneEnrolment(await visitorFor(accounts, cookie), (await lastText(accounts, stored)).code);
    return stored;
  }

  it("enrols a number confirmed by a texted code, then signs in with a new code that works once", async () => {
    const { user, cookie } = await newAccount("phoebe@example.test");

    // The number is checked on the server, and the password asked again.
    const badNumber = await refusal(
      startPhoneEnrolment(await visitorFor(accounts, cookie), {
        password: STRONG_PASSWORD,
        phoneNumber: "07700 900123",
      }),
    );
    expect(badNumber.fields).toEqual({ phoneNumber: PHONE_NUMBER_MESSAGE });
    const badPassword = await refusal(
      startPhoneEnrolment(await visitorFor(accounts, cookie), {
        password: "not the password",
        phoneNumber: "+44 7700 900123",
      }),
    );
    expect(badPassword.fields).toEqual({ password: WRONG_PASSWORD_MESSAGE });
    expect(await textsTo("+447700900123")).toBe(0);

    // A code goes to the number (E.164), stored only as a hash.
    const stored = await startPhoneEnrolment(await visitorFor(accounts, cookie), {
      password: STRONG_PASSWORD,
      phoneNumber: "+44 (7700) 900-123",
    });
    expect(stored).toBe("+447700900123");
    const text = await lastText(accounts, stored);
    expect(text).toMatchObject({ kind: "two-factor-code", user_id: user.id });
    expect(text.body).toContain("code to confirm this phone number");
    const verifications = await sql<{ value: string }>`select value from verification`.execute(accounts.services.db);
    expect(verifications.rows.some((row) => row.value.includes(text.code))).toBe(false);

    // Pending: sign-in asks for no code yet.
    const unconfirmed = await callAuth(accounts.services, incomingRequest({ ip: freshIp() }), "/sign-in/email", {
      email: "phoebe@example.test",
      password: STRONG_PASSWORD,
    });
    expect(unconfirmed.body.twoFactorRedirect).toBeUndefined();

    // A wrong code is refused beside its field; the right one turns two-factor on and rotates the session.
    const wrong = String((Number(text.code) + 1) % 1_000_000).padStart(6, "0");
    expect((await refusal(confirmPhoneEnrolment(await visitorFor(accounts, cookie), wrong))).fields).toEqual({
      code: WRONG_PHONE_CODE_MESSAGE,
    });
    const confirming = await visitorFor(accounts, cookie);
    await confirmPhoneEnrolment(confirming, text.code);
    expect(confirming.cookies.some((value) => /session_token=[^;]/.test(value))).toBe(true);
    expect(await userRow(user.id)).toEqual({ twoFactorEnabled: true });
    expect(await audit(user.id)).toContain("account.phone-factor-enabled");
    // The same code again is no longer a change: it was used.
    const rotated = confirming.cookies.find((value) => /session_token=[^;]/.test(value))?.split(";")[0] as string;
    expect((await refusal(confirmPhoneEnrolment(await visitorFor(accounts, rotated), text.code))).fields).toEqual({
      code: PHONE_CODE_EXPIRED_MESSAGE,
    });

    // Sign-in: the password, then the factors of this account, then a texted code.
    const challenge = await passwordStep(accounts, "phoebe@example.test");
    const factors = await accounts.services.auth.handler(
      new Request(`${PUBLIC_URL}/api/auth${SIGN_IN_FACTORS_PATH}`, { headers: { cookie: challenge } }),
    );
    expect(await factors.json()).toEqual({ authenticator: false, backupCodes: false, phone: "•••• 0123" });
    expect((await callAuth(accounts.services, asChallenge(challenge), "/two-factor/send-otp", {})).status).toBe(200);
    const signInText = await lastText(accounts, stored);
    expect(signInText.body).toContain("sign-in code");
    const verified = await callAuth(accounts.services, asChallenge(challenge), "/two-factor/verify-otp", {
      code: signInText.code,
    });
    expect(verified.status).toBe(200);
    expect(verified.cookies.some((value) => /session_token=[^;]/.test(value))).toBe(true);
    const signIns = await accounts.services.db
      .selectFrom("audit_log")
      .select("details")
      .where("user_id", "=", user.id)
      .where("action", "=", "auth.sign-in")
      .execute();
    expect(signIns.map((row) => (row.details as { method?: string }).method)).toEqual([
      "/sign-in/email",
      "/sign-in/email",
      "/two-factor/verify-otp",
    ]);

    // The code used: refused at the next sign-in.
    const next = await passwordStep(accounts, "phoebe@example.test");
    const reused = await callAuth(accounts.services, asChallenge(next), "/two-factor/verify-otp", {
      code: signInText.code,
    });
    expect(reused.status).toBe(400);
    expect(reused.body.code).toBe("OTP_HAS_EXPIRED");
  });

  it("refuses an expired code and the code before a newer one", async () => {
    const { cookie } = await newAccount("percy@example.test");
    const phone = await enrol(cookie, "+1 202 555 0143");

    const challenge = await passwordStep(accounts, "percy@example.test");
    await callAuth(accounts.services, asChallenge(challenge), "/two-factor/send-otp", {});
    const older = await lastText(accounts, phone);
    await callAuth(accounts.services, asChallenge(challenge), "/two-factor/send-otp", {});
    const newer = await lastText(accounts, phone);
    const superseded = await callAuth(accounts.services, asChallenge(challenge), "/two-factor/verify-otp", {
      code: older.code === newer.code ? String((Number(older.code) + 1) % 1_000_000).padStart(6, "0") : older.code,
    });
    expect(superseded.status).toBe(401);
    expect(superseded.body.code).toBe("INVALID_CODE");

    // Five minutes later the code has expired (its stored expiry moved into the past).
    const past = new Date(Date.now() - 1000);
    await sql`update verification set ${sql.ref("expiresAt")} = ${dialect === "postgres" ? past : past.toISOString()} where identifier like ${"2fa-otp-%"}`.execute(
      accounts.services.db,
    );
    const expired = await callAuth(accounts.services, asChallenge(challenge), "/two-factor/verify-otp", {
      code: newer.code,
    });
    expect(expired.status).toBe(400);
    expect(expired.body.code).toBe("OTP_HAS_EXPIRED");
  });

  it("limits texts per number (3 in 15 minutes) and per account (6 an hour)", async () => {
    const { cookie } = await newAccount("rita@example.test");
    await startPhoneEnrolment(await visitorFor(accounts, cookie), {
      password: STRONG_PASSWORD,
      phoneNumber: "+33 6 12 34 56 78",
    });
    await sendPhoneCode(await visitorFor(accounts, cookie));
    await sendPhoneCode(await visitorFor(accounts, cookie));
    const perNumber = await refusal(sendPhoneCode(await visitorFor(accounts, cookie)));
    expect(perNumber).toBeInstanceOf(RateLimited);
    expect(perNumber.message).toBe("Too many codes were sent to this number. Try again in 15 minutes.");
    expect(await textsTo("+33612345678")).toBe(3);

    // Another number: three more, then the account's limit holds whatever the number.
    await startPhoneEnrolment(await visitorFor(accounts, cookie), {
      password: STRONG_PASSWORD,
      phoneNumber: "+33 6 98 76 54 32",
    });
    await sendPhoneCode(await visitorFor(accounts, cookie));
    await sendPhoneCode(await visitorFor(accounts, cookie));
    const perAccount = await refusal(
      startPhoneEnrolment(await visitorFor(accounts, cookie), {
        password: STRONG_PASSWORD,
        phoneNumber: "+33 6 00 00 00 01",
      }),
    );
    expect(perAccount.message).toBe("Too many codes were sent for this account. Try again in 60 minutes.");
    expect(await textsTo("+33600000001")).toBe(0);
  });

  it("refuses a new number while the account's send limit holds, keeping the number before pending", async () => {
    const { user, cookie } = await newAccount("ursula@example.test");
    await startPhoneEnrolment(await visitorFor(accounts, cookie), {
      password: STRONG_PASSWORD,
      phoneNumber: "+44 7700 900201",
    });
    await sendPhoneCode(await visitorFor(accounts, cookie));
    await sendPhoneCode(await visitorFor(accounts, cookie));
    const first = await startPhoneEnrolment(await visitorFor(accounts, cookie), {
      password: STRONG_PASSWORD,
      phoneNumber: "+44 7700 900202",
    });
    await sendPhoneCode(await visitorFor(accounts, cookie));
    await sendPhoneCode(await visitorFor(accounts, cookie));
    const outstanding = await lastText(accounts, first);

    // Six texts this hour: a mistyped number is refused, not stored with no code sent to it.
    const refused = await refusal(
      startPhoneEnrolment(await visitorFor(accounts, cookie), {
        password: STRONG_PASSWORD,
        phoneNumber: "+44 7700 900299",
      }),
    );
    expect(refused).toBeInstanceOf(RateLimited);
    expect(refused.message).toBe("Too many codes were sent for this account. Try again in 60 minutes.");
    expect(await textsTo("+447700900299")).toBe(0);
    expect(await findPhoneFactor(accounts.services.db, user.id)).toEqual({ phoneNumber: first, verified: false });

    // The code outstanding confirms the number it was sent to.
    await confirmPhoneEnrolment(await visitorFor(accounts, cookie), outstanding.code);
    expect(await findPhoneFactor(accounts.services.db, user.id)).toEqual({ phoneNumber: first, verified: true });
  });

  it("confirms a new number only with a code texted to it, not with one texted to the number before", async () => {
    const { user, cookie } = await newAccount("umberto@example.test");
    const { cookie: otherSession } = await signIn(accounts, "umberto@example.test", STRONG_PASSWORD);
    const before = await startPhoneEnrolment(await visitorFor(accounts, cookie), {
      password: STRONG_PASSWORD,
      phoneNumber: "+44 7700 900301",
    });
    const codeHere = (await lastText(accounts, before)).code;
    await sendPhoneCode(await visitorFor(accounts, otherSession as string));
    const codeThere = (await lastText(accounts, before)).code;

    // A new number stored without a text to it (as when the text could not be sent).
    const stored = await callAuth(accounts.services, incomingRequest({ cookie, ip: freshIp() }), PHONE_ENROL_PATH, {
      password: STRONG_PASSWORD,
      phoneNumber: "+44 7700 900309",
    });
    expect(stored.status).toBe(200);
    expect(await textsTo("+447700900309")).toBe(0);

    // The codes texted to the number before, from either session, confirm nothing.
    for (const [session, code] of [
      [cookie, codeHere],
      [otherSession as string, codeThere],
    ] as const) {
      expect((await refusal(confirmPhoneEnrolment(await visitorFor(accounts, session), code))).fields).toEqual({
        code: PHONE_CODE_EXPIRED_MESSAGE,
      });
    }
    expect(await findPhoneFactor(accounts.services.db, user.id)).toEqual({
      phoneNumber: "+447700900309",
      verified: false,
    });
    expect(await userRow(user.id)).toEqual({ twoFactorEnabled: false });
    expect(await audit(user.id)).not.toContain("account.phone-factor-enabled");

    // A code texted to the new number confirms it.
    await sendPhoneCode(await visitorFor(accounts, cookie));
    await confirmPhoneEnrolment(await visitorFor(accounts, cookie), (await lastText(accounts, "+447700900309")).code);
    expect(await findPhoneFactor(accounts.services.db, user.id)).toEqual({
      phoneNumber: "+447700900309",
      verified: true,
    });
    expect(await userRow(user.id)).toEqual({ twoFactorEnabled: true });
  });

  it("texts no code to an account without a confirmed number, and never turns the plugin's bare OTP on", async () => {
    const { user, cookie } = await newAccount("tom@example.test");
    const enableOtp = await callAuth(
      accounts.services,
      incomingRequest({ cookie, ip: freshIp() }),
      "/two-factor/enable",
      { password: STRONG_PASSWORD, method: "otp" },
    );
    expect(enableOtp.status).toBe(400);
    expect(await userRow(user.id)).toEqual({ twoFactorEnabled: false });
    const noNumber = await callAuth(
      accounts.services,
      incomingRequest({ cookie, ip: freshIp() }),
      "/two-factor/send-otp",
      {},
    );
    expect(noNumber.status).toBe(400);
    expect(noNumber.body.code).toBe("NO_PHONE_FACTOR");
  });

  it("keeps two-factor on while one factor remains, and records removing the phone", async () => {
    const { user, cookie } = await newAccount("quinn@example.test");
    const phone = await enrol(cookie, "+49 151 23456789");
    // Turning the authenticator app off (none was on) leaves two-factor on: the phone remains.
    const session = await accounts.services.auth.api.getSession({ headers: new Headers({ cookie }) });
    // The session was rotated when the phone turned two-factor on.
    expect(session).toBeNull();
    const { cookie: fresh } = await signInWithPhone("quinn@example.test", phone);
    const disabled = await callAuth(
      accounts.services,
      incomingRequest({ cookie: fresh, ip: freshIp() }),
      "/two-factor/disable",
      {
        password: STRONG_PASSWORD,
      },
    );
    expect(disabled.status).toBe(200);
    expect(await userRow(user.id)).toEqual({ twoFactorEnabled: true });
    const current = disabled.cookies.find((value) => /session_token=[^;]/.test(value))?.split(";")[0] as string;

    expect((await refusal(removePhone(await visitorFor(accounts, current), "not the password"))).fields).toEqual({
      password: WRONG_PASSWORD_MESSAGE,
    });
    await removePhone(await visitorFor(accounts, current), STRONG_PASSWORD);
    expect(await userRow(user.id)).toEqual({ twoFactorEnabled: false });
    expect(await audit(user.id)).toEqual(
      expect.arrayContaining(["account.phone-factor-enabled", "account.phone-factor-removed"]),
    );
    const plain = await callAuth(accounts.services, incomingRequest({ ip: freshIp() }), "/sign-in/email", {
      email: "quinn@example.test",
      password: STRONG_PASSWORD,
    });
    expect(plain.body.twoFactorRedirect).toBeUndefined();
  });

  it("holds the send limits against concurrent requests, from several accounts on one number", async () => {
    const shared = "+44 7700 900777";
    const first = await newAccount("vera@example.test");
    const second = await newAccount("walt@example.test");
    const phone = await enrol(first.cookie, shared);
    await enrol(second.cookie, shared);
    // The enrolment texts are 20 minutes old: the number has room for 3 again, each account for 5.
    const earlier = new Date(Date.now() - 20 * 60_000).toISOString();
    await accounts.services.db
      .updateTable("sms_outbox")
      .set({ created_at: earlier })
      .where("to_number", "=", phone)
      .execute();

    const challenges = [
      await passwordStep(accounts, "vera@example.test"),
      await passwordStep(accounts, "walt@example.test"),
    ];
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        callAuth(accounts.services, asChallenge(challenges[index % 2] as string), "/two-factor/send-otp", {}),
      ),
    );
    const recent = await accounts.services.db
      .selectFrom("sms_outbox")
      .select("id")
      .where("to_number", "=", phone)
      .where("created_at", ">", earlier)
      .execute();
    expect(recent).toHaveLength(3);
    expect(answers.filter((answer) => answer.status === 200).length).toBeGreaterThanOrEqual(3);
    const next = await callAuth(accounts.services, asChallenge(challenges[0] as string), "/two-factor/send-otp", {});
    expect(next.status).toBe(429);
    expect(next.body.message).toBe("Too many codes were sent to this number. Try again in 15 minutes.");
  });

  it("tells a sign-in that expired from an account without a number", async () => {
    const { cookie } = await newAccount("xena@example.test");
    await enrol(cookie, "+44 7700 900888");
    const challenge = await passwordStep(accounts, "xena@example.test");
    // The browser dropped the challenge cookie after 10 minutes, or the server's record of it expired.
    const past = new Date(Date.now() - 1000);
    await sql`update verification set ${sql.ref("expiresAt")} = ${dialect === "postgres" ? past : past.toISOString()} where identifier like ${"2fa-%"}`.execute(
      accounts.services.db,
    );
    for (const request of [incomingRequest({ ip: freshIp() }), asChallenge(challenge)]) {
      for (const [path, body] of [
        ["/two-factor/send-otp", {}],
        ["/two-factor/verify-otp", { code: "123456" }],
      ] as const) {
        const answer = await callAuth(accounts.services, request, path, body);
        expect({ path, status: answer.status, code: answer.body.code }).toEqual({
          path,
          status: 401,
          code: "INVALID_TWO_FACTOR_COOKIE",
        });
      }
    }
  });

  async function signInWithPhone(email: string, phone: string) {
    const challenge = await passwordStep(accounts, email);
    await callAuth(accounts.services, asChallenge(challenge), "/two-factor/send-otp", {});
    const result = await callAuth(accounts.services, asChallenge(challenge), "/two-factor/verify-otp", {
      code: (await lastText(accounts, phone)).code,
    });
    expect(result.status).toBe(200);
    return { cookie: result.cookies.find((value) => /session_token=[^;]/.test(value))?.split(";")[0] as string };
  }
});
