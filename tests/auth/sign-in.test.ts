import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callAuth, describeWait, rateLimitMessage } from "../../server/auth/handler-calls.ts";
import {
  ACCOUNT_FAILURE_LIMIT,
  ACCOUNT_LOCKED_MESSAGE,
  PAIR_FAILURE_LIMIT,
  PAIR_LOCKED_MESSAGE,
  recordFailedSignIn,
} from "../../server/auth/sign-in-guard.ts";
import { createUser, type UserSummary } from "../../server/auth/users.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { type Accounts, freshIp, incomingRequest, openAccounts, STRONG_PASSWORD, signIn } from "./accounts-fixture.ts";

/**
 * Sign-in and sign-out as the /auth actions call them (through Better Auth's handler):
 * the audit rows, the same answer for an unknown email and a wrong password, and the
 * per-IP limit, and the per-account limits that an attacker cannot turn into a lockout.
 */

describe("rate limit texts", () => {
  it("says how long to wait", () => {
    expect(describeWait(1)).toBe("1 second");
    expect(describeWait(45)).toBe("45 seconds");
    expect(describeWait(60)).toBe("1 minute");
    expect(describeWait(61)).toBe("2 minutes");
    const limited = { ok: false, status: 429, body: {}, cookies: [], retryAfterSeconds: 42 };
    expect(rateLimitMessage(limited)).toBe("Too many attempts. Please try again in 42 seconds.");
    expect(
      rateLimitMessage({ ...limited, retryAfterSeconds: null, body: { message: "Try again in 15 minutes." } }),
    ).toBe("Try again in 15 minutes.");
  });
});

describe.each(TEST_DIALECTS)("signing in and out through the handler on %s", (dialect) => {
  let accounts: Accounts;
  let user: UserSummary;

  beforeAll(async () => {
    accounts = await openAccounts(dialect);
    user = await createUser(accounts.services, {
      email: "sam@example.test",
      password: STRONG_PASSWORD,
      role: "editor",
      via: "test",
    });
  });
  afterAll(async () => {
    await accounts?.close();
  });

  async function audit(action: string) {
    return accounts.services.db
      .selectFrom("audit_log")
      .select(["user_id", "entity_id"])
      .where("action", "=", action)
      .orderBy("at")
      .execute();
  }

  it("records a sign-in, a failed sign-in and a sign-out, each with who it was", async () => {
    const failed = await signIn(accounts, "SAM@example.test", "not the password");
    expect(failed.status).toBe(401);
    const unknown = await callAuth(accounts.services, incomingRequest({ ip: freshIp() }), "/sign-in/email", {
      email: "nobody@example.test",
      password: "not the password",
    });
    expect(unknown.status).toBe(401);
    // The same answer whether the account exists or not.
    const known = await callAuth(accounts.services, incomingRequest({ ip: freshIp() }), "/sign-in/email", {
      email: "sam@example.test",
      password: "not the password",
    });
    expect(known.body).toEqual(unknown.body);

    const signedIn = await signIn(accounts, "sam@example.test", STRONG_PASSWORD);
    expect(signedIn.status).toBe(200);
    const signedOut = await callAuth(
      accounts.services,
      incomingRequest({ cookie: signedIn.cookie, ip: freshIp() }),
      "/sign-out",
      {},
    );
    expect(signedOut.status).toBe(200);
    expect(signedOut.cookies.some((cookie) => /session_token=;/.test(cookie) && /Max-Age=0/i.test(cookie))).toBe(true);

    expect(await audit("auth.sign-in-failed")).toEqual([
      { user_id: null, entity_id: "sam@example.test" },
      { user_id: null, entity_id: "nobody@example.test" },
      { user_id: null, entity_id: "sam@example.test" },
    ]);
    expect((await audit("auth.sign-in")).map((row) => row.user_id)).toEqual([user.id]);
    const signOuts = await audit("auth.sign-out");
    expect(signOuts).toHaveLength(1);
    expect(signOuts[0]?.user_id).toBe(user.id);
  });

  it("limits attempts per client IP (5 a minute) with a retry time", async () => {
    const request = incomingRequest({ ip: "203.0.113.200" });
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof callAuth>> | undefined;
    for (let attempt = 0; attempt < 6; attempt++) {
      last = await callAuth(accounts.services, request, "/sign-in/email", {
        email: `ip-limit-${attempt}@example.test`,
        password: "whatever it is",
      });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect(last?.retryAfterSeconds).toBeGreaterThan(0);
    expect(last?.retryAfterSeconds).toBeLessThanOrEqual(60);
  });

  it("locks guessing per account and address (10 in 15 minutes), not the owner elsewhere", async () => {
    await createUser(accounts.services, {
      email: "target@example.test",
      password: STRONG_PASSWORD,
      role: "editor",
      via: "test",
    });
    const guesser = freshIp();
    // A real failure counts for its address…
    expect((await signIn(accounts, "target@example.test", "wrong guess", guesser)).status).toBe(401);
    // …and nine more, recorded as the hook records them (the per-IP limit allows 5 a minute).
    for (let attempt = 1; attempt < PAIR_FAILURE_LIMIT; attempt++) {
      await recordFailedSignIn(accounts.services.db, "target@example.test", guesser);
    }
    const blocked = await callAuth(accounts.services, incomingRequest({ ip: guesser }), "/sign-in/email", {
      email: "target@example.test",
      password: STRONG_PASSWORD,
    });
    expect(blocked.status).toBe(429);
    expect(rateLimitMessage(blocked)).toBe(PAIR_LOCKED_MESSAGE);
    // The owner, from another address, still signs in.
    expect((await signIn(accounts, "target@example.test", STRONG_PASSWORD)).status).toBe(200);
  });

  it("pauses password sign-in after many failures from everywhere, unless a second factor guards the account", async () => {
    const besieged = ["besieged@example.test", "guarded@example.test"];
    for (const email of besieged) {
      await createUser(accounts.services, { email, password: STRONG_PASSWORD, role: "editor", via: "test" });
      for (let attempt = 0; attempt < ACCOUNT_FAILURE_LIMIT; attempt++) {
        await recordFailedSignIn(accounts.services.db, email, freshIp());
      }
    }
    await accounts.services.db
      .withTables<{ user: { email: string; twoFactorEnabled: boolean } }>()
      .updateTable("user")
      .set({ twoFactorEnabled: true })
      .where("email", "=", "guarded@example.test")
      .execute();

    const paused = await callAuth(accounts.services, incomingRequest({ ip: freshIp() }), "/sign-in/email", {
      email: "besieged@example.test",
      password: STRONG_PASSWORD,
    });
    expect(paused.status).toBe(429);
    expect(rateLimitMessage(paused)).toBe(ACCOUNT_LOCKED_MESSAGE);

    // The password alone opens nothing here: it leads to the second-factor step.
    const guarded = await callAuth(accounts.services, incomingRequest({ ip: freshIp() }), "/sign-in/email", {
      email: "guarded@example.test",
      password: STRONG_PASSWORD,
    });
    expect(guarded.status).toBe(200);
    expect(guarded.body).toMatchObject({ twoFactorRedirect: true });
  });
});
