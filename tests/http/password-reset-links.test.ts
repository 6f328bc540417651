import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESET_EMAILS_PER_ADDRESS } from "../../server/auth/password-reset-links.ts";
import { type SiteWithAccounts, signIn, startSiteWithAccounts, TEST_PASSWORD } from "../helpers/accounts.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";

/**
 * Password-reset links over HTTP, as Better Auth's endpoints take them: using one link
 * ends the account's older ones, and one address receives at most a few reset emails an
 * hour however many addresses ask (each request here comes from its own client address).
 */

const OWNER = { email: "rosa.reset@example.com", name: "Rosa Reset", role: "admin" as const };
const CHANGER = { email: "carl.change@example.com", name: "Carl Change", role: "editor" as const };
const NEW_PASSWORD = "a brand new passphrase 2026";

describe.each(TEST_DIALECTS)("password-reset links on %s", (dialect) => {
  let site: SiteWithAccounts;
  let base: string;
  let nextClient = 1;

  beforeAll(async () => {
    site = await startSiteWithAccounts({ dialect, accounts: [OWNER, CHANGER], server: { env: { TRUST_PROXY: "1" } } });
    base = site.server.url;
  });

  afterAll(async () => {
    await site?.stop();
  });

  async function requestReset(email: string): Promise<number> {
    const response = await fetch(`${base}/api/auth/request-password-reset`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Origin: base,
        "X-Forwarded-For": `10.91.${dialect === "sqlite" ? 1 : 2}.${nextClient++}`,
      },
      body: JSON.stringify({ email, redirectTo: `${base}/auth/reset-password` }),
    });
    return response.status;
  }

  async function emailedTokens(to = OWNER.email): Promise<string[]> {
    const database = await site.openDatabase();
    try {
      const rows = await database.db
        .selectFrom("email_outbox")
        .select("text_body")
        .where("kind", "=", "password-reset")
        .where("to_address", "=", to)
        .orderBy("created_at", "asc")
        .execute();
      return rows.map((row) => /token=([\w-]+)/.exec(row.text_body)?.[1] as string);
    } finally {
      await database.close();
    }
  }

  const resetWith = (token: string, newPassword: string) =>
    fetch(`${base}/api/auth/reset-password`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: base, "X-Forwarded-For": `10.92.0.${nextClient++}` },
      body: JSON.stringify({ token, newPassword }),
    });

  it("ends the older links of the account when one is used", async () => {
    expect(await requestReset(OWNER.email)).toBe(200);
    expect(await requestReset(OWNER.email)).toBe(200);
    const [older, newer] = await emailedTokens();
    expect(older).toBeTruthy();
    expect(newer).toBeTruthy();

    expect((await resetWith(newer as string, NEW_PASSWORD)).status).toBe(200);
    const reuse = await resetWith(older as string, "an attacker's own passphrase");
    expect(reuse.status).toBe(400);
    expect(((await reuse.json()) as { code?: string }).code).toBe("INVALID_TOKEN");
    // The password is the one set with the newer link.
    await expect(signIn(base, OWNER.email, { password: NEW_PASSWORD, clientIp: "10.93.0.1" })).resolves.toContain(
      "session_token=",
    );
  });

  it("ends the account's links when its password is changed from the account page", async () => {
    expect(await requestReset(CHANGER.email)).toBe(200);
    const [token] = await emailedTokens(CHANGER.email);
    expect(token).toBeTruthy();
    const cookie = await signIn(base, CHANGER.email, { clientIp: "10.93.0.2" });
    const changed = await fetch(`${base}/api/auth/change-password`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: base, Cookie: cookie },
      body: JSON.stringify({ currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD }),
    });
    expect(changed.status).toBe(200);
    const late = await resetWith(token as string, "an attacker's own passphrase");
    expect(late.status).toBe(400);
    expect(((await late.json()) as { code?: string }).code).toBe("INVALID_TOKEN");
  });

  it("emails one address a few links an hour, answering every request the same", async () => {
    const before = (await emailedTokens()).length;
    const statuses = [];
    for (let attempt = 0; attempt < RESET_EMAILS_PER_ADDRESS + 3; attempt++) {
      statuses.push(await requestReset(OWNER.email));
    }
    expect(statuses.every((status) => status === 200)).toBe(true);
    // The first test's two requests count against the same hour.
    expect((await emailedTokens()).length).toBe(Math.max(before, RESET_EMAILS_PER_ADDRESS));
    // Another address has its own allowance.
    expect(await requestReset("nobody@example.com")).toBe(200);
  });
});
