import { createHmac, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmPhoneEnrolment, startPhoneEnrolment } from "../../server/auth/account-changes.ts";
import { TRUST_DEVICE_REFUSED_MESSAGE } from "../../server/auth/auth.ts";
import { callAuth } from "../../server/auth/handler-calls.ts";
import { createUser } from "../../server/auth/users.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import {
  type Accounts,
  freshIp,
  incomingRequest,
  lastText,
  openAccounts,
  passwordSignIn,
  STRONG_PASSWORD,
  signIn,
  totp,
  visitorFor,
  withAuthenticator,
} from "./accounts-fixture.ts";

/**
 * The product offers no "trust this device": Better Auth's two-factor plugin would
 * otherwise take `trustDevice: true` with a code and set a cookie that lets the next
 * password sign-ins on that browser skip the second factor for 30 days.
 */

const TRUST_COOKIE_SET = /^(?:__Secure-)?bastion\.trust_device=[^;]/;
const SESSION_COOKIE_SET = /^(?:__Secure-)?bastion\.session_token=[^;]/;

/** The Cookie header a browser would send after receiving these Set-Cookie values (later ones win). */
function cookieJar(...setCookies: string[][]): string {
  const jar = new Map<string, string>();
  for (const value of setCookies.flat()) {
    const pair = value.split(";")[0] as string;
    const name = pair.slice(0, pair.indexOf("="));
    if (pair.endsWith("=") || /max-age=0/i.test(value)) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join("; ");
}

describe.each(TEST_DIALECTS)("trusting a device on %s", (dialect) => {
  let accounts: Accounts;

  beforeAll(async () => {
    accounts = await openAccounts(dialect);
  });
  afterAll(async () => {
    await accounts?.close();
  });

  const verify = (cookie: string, path: string, body: Record<string, unknown>) =>
    callAuth(accounts.services, incomingRequest({ cookie, ip: freshIp() }), path, body);

  it("refuses trustDevice with an authenticator code or a backup code, and the next sign-in still asks for a code", async () => {
    const email = "tristan@example.test";
    const { secret, backupCodes } = await withAuthenticator(accounts, email);

    for (const [path, code] of [
      ["/two-factor/verify-totp", totp(secret)],
      ["/two-factor/verify-backup-code", backupCodes[0] as string],
    ] as const) {
      const step = await passwordSignIn(accounts, email);
      expect(step.body.twoFactorRedirect).toBe(true);
      const refused = await verify(cookieJar(step.cookies), path, { code, trustDevice: true });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe(TRUST_DEVICE_REFUSED_MESSAGE);
      expect(refused.cookies.filter((value) => TRUST_COOKIE_SET.test(value) || SESSION_COOKIE_SET.test(value))).toEqual(
        [],
      );
    }

    // The same browser signs in with the code alone; its next password sign-in asks again.
    const step = await passwordSignIn(accounts, email);
    const signedIn = await verify(cookieJar(step.cookies), "/two-factor/verify-totp", { code: totp(secret) });
    expect(signedIn.status).toBe(200);
    const browser = cookieJar(step.cookies, signedIn.cookies);
    const again = await passwordSignIn(accounts, email, browser);
    expect(again.body.twoFactorRedirect).toBe(true);
    expect(again.cookies.some((value) => SESSION_COOKIE_SET.test(value))).toBe(false);
  });

  it("refuses trustDevice with a texted code", async () => {
    const email = "tessa@example.test";
    await createUser(accounts.services, { email, password: STRONG_PASSWORD, role: "editor", via: "test" });
    const { cookie } = await signIn(accounts, email, STRONG_PASSWORD);
    const phone = await startPhoneEnrolment(await visitorFor(accounts, cookie as string), {
      password: STRONG_PASSWORD,
      phoneNumber: "+44 7700 900456",
    });
    await confirmPhoneEnrolment(await visitorFor(accounts, cookie as string), (await lastText(accounts, phone)).code);

    const step = await passwordSignIn(accounts, email);
    const challenge = cookieJar(step.cookies);
    expect((await verify(challenge, "/two-factor/send-otp", {})).status).toBe(200);
    const refused = await verify(challenge, "/two-factor/verify-otp", {
      code: (await lastText(accounts, phone)).code,
      trustDevice: true,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(TRUST_DEVICE_REFUSED_MESSAGE);
    expect(refused.cookies.some((value) => TRUST_COOKIE_SET.test(value))).toBe(false);
  });

  it("no longer skips the second factor for a trust cookie issued before such requests were refused", async () => {
    const email = "trudy@example.test";
    const { user } = await withAuthenticator(accounts, email);
    // The record and signed cookie Better Auth's plugin wrote for `trustDevice: true`.
    const context = await accounts.services.auth.$context;
    const identifier = `trust-device-${randomBytes(24).toString("base64url")}`;
    await context.internalAdapter.createVerificationValue({
      value: user.id,
      identifier,
      expiresAt: new Date(Date.now() + 30 * 24 * 60 * 60 * 1000),
    });
    const token = createHmac("sha256", context.secret).update(`${user.id}!${identifier}`).digest("base64url");
    const value = `${token}!${identifier}`;
    const signature = createHmac("sha256", context.secret).update(value).digest("base64");
    const trustCookie = `bastion.trust_device=${encodeURIComponent(`${value}.${signature}`)}`;

    const step = await passwordSignIn(accounts, email, trustCookie);
    expect(step.body.twoFactorRedirect).toBe(true);
    expect(step.cookies.some((cookie) => SESSION_COOKIE_SET.test(cookie))).toBe(false);
    const records = await accounts.services.db
      .withTables<{ verification: { identifier: string } }>()
      .selectFrom("verification")
      .select("identifier")
      .where("identifier", "like", "trust-device-%")
      .execute();
    expect(records).toEqual([]);
  });
});
