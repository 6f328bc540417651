import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BOUNCE_SECRET_FAILURES, BOUNCE_SECRET_HEADER } from "../../server/newsletter/api.ts";
import { type SiteWithAccounts, signIn, startSiteWithAccounts } from "../helpers/accounts.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";

/**
 * The client's address behind proxies (server/http/client-address.ts), on the real
 * server: the per-IP limits of the newsletter (10 subscribes in 15 minutes) and of Better
 * Auth (5 sign-in attempts a minute) count the right-most X-Forwarded-For entry no
 * trusted proxy added, so a client that writes a new left part on each request gains
 * nothing; an IPv6 client counts as its /64, since it may send each request from a
 * new address of it; and without TRUST_PROXY the header is ignored altogether.
 */

const SUBSCRIBE_LIMIT_PER_IP = 10;
const SIGN_IN_LIMIT_PER_IP = 5;
const OWNER = { email: "owner@example.com", name: "Owner", role: "admin" as const };

let unique = 0;

function subscribe(base: string, forwardedFor?: string): Promise<Response> {
  unique += 1;
  return fetch(`${base}/api/newsletter/subscribe`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Origin: base,
      ...(forwardedFor ? { "X-Forwarded-For": forwardedFor } : {}),
    },
    body: JSON.stringify({ email: `reader-${unique}@example.com` }),
  });
}

function failedSignIn(base: string, forwardedFor: string): Promise<Response> {
  unique += 1;
  return fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: base, "X-Forwarded-For": forwardedFor },
    // A different unknown account each time: only the per-IP limit can refuse these.
    body: JSON.stringify({ email: `nobody-${unique}@example.com`, password: "wrong password 1234" }),
  });
}

function wrongBounceSecret(base: string, forwardedFor: string): Promise<Response> {
  return fetch(`${base}/api/newsletter/webhooks/bounce`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      [BOUNCE_SECRET_HEADER]: "not the secret",
      "X-Forwarded-For": forwardedFor,
    },
    body: JSON.stringify({ email: "reader@example.com", type: "hard" }),
  });
}

/** The statuses of `count` subscribes, each with its own forged left part. */
async function subscribeStatuses(base: string, count: number, forwardedFor: (index: number) => string) {
  const statuses: number[] = [];
  for (let index = 0; index < count; index += 1) statuses.push((await subscribe(base, forwardedFor(index))).status);
  return statuses;
}

async function sessionAddresses(site: SiteWithAccounts): Promise<string[]> {
  const database = await site.openDatabase();
  try {
    const { rows } = await sql<{ ipAddress: string }>`select "ipAddress" from "session"`.execute(database.db);
    return rows.map((row) => row.ipAddress);
  } finally {
    await database.close();
  }
}

const allowedThenRefused = (limit: number) => [...Array(limit).fill(200), 429];

describe.each(TEST_DIALECTS)("client addresses behind proxies (%s)", (dialect) => {
  describe("TRUST_PROXY=1 (one proxy in front, such as nginx)", () => {
    let site: SiteWithAccounts;
    beforeAll(async () => {
      site = await startSiteWithAccounts({ dialect, accounts: [OWNER], server: { env: { TRUST_PROXY: "1" } } });
    });
    afterAll(() => site?.stop());

    it("refuses the 11th subscribe of one client whatever it writes left of its address", async () => {
      const base = site.server.url;
      const statuses = await subscribeStatuses(base, SUBSCRIBE_LIMIT_PER_IP + 1, (i) => `10.9.${i}.1, 198.51.100.7`);
      expect(statuses).toEqual(allowedThenRefused(SUBSCRIBE_LIMIT_PER_IP));
      // Another client behind the same proxy has its own count.
      expect((await subscribe(base, "198.51.100.8")).status).toBe(200);
    });

    it("counts an IPv6 client by its /64, from which it may take a new address for each request", async () => {
      const base = site.server.url;
      const statuses = await subscribeStatuses(base, SUBSCRIBE_LIMIT_PER_IP + 1, (i) => `2001:db8::${i + 1}`);
      expect(statuses).toEqual(allowedThenRefused(SUBSCRIBE_LIMIT_PER_IP));
      // The next /64 is another client.
      expect((await subscribe(base, "2001:db8:0:1::1")).status).toBe(200);
    });

    it("refuses wrong bounce webhook secrets from one IPv6 /64 whichever of its addresses sends them", async () => {
      const base = site.server.url;
      const statuses: number[] = [];
      for (let index = 0; index < BOUNCE_SECRET_FAILURES.limit; index += 1) {
        statuses.push((await wrongBounceSecret(base, `2001:db8:0:2::${index + 1}`)).status);
      }
      expect(statuses).toEqual(Array(BOUNCE_SECRET_FAILURES.limit).fill(401));
      expect((await wrongBounceSecret(base, "2001:db8:0:2::ffff")).status).toBe(429);
      expect((await wrongBounceSecret(base, "2001:db8:0:3::1")).status).toBe(401);
    });

    it("limits sign-in attempts per real client, and records that address on the session", async () => {
      const base = site.server.url;
      const statuses: number[] = [];
      for (let index = 0; index <= SIGN_IN_LIMIT_PER_IP; index += 1) {
        statuses.push((await failedSignIn(base, `10.8.${index}.1, 198.51.100.20`)).status);
      }
      expect(statuses.slice(0, SIGN_IN_LIMIT_PER_IP).every((status) => status === 401)).toBe(true);
      expect(statuses[SIGN_IN_LIMIT_PER_IP]).toBe(429);
      expect((await failedSignIn(base, "10.8.99.1, 198.51.100.21")).status).toBe(401);

      await signIn(base, OWNER.email, { clientIp: "6.6.6.6, 198.51.100.30" });
      expect(await sessionAddresses(site)).toEqual(["198.51.100.30"]);
    });
  });

  describe("TRUST_PROXY off", () => {
    let site: SiteWithAccounts;
    beforeAll(async () => {
      site = await startSiteWithAccounts({ dialect, accounts: [OWNER], server: { env: { TRUST_PROXY: "false" } } });
    });
    afterAll(() => site?.stop());

    it("ignores X-Forwarded-For: every request counts against the socket's address", async () => {
      const base = site.server.url;
      const statuses = await subscribeStatuses(base, SUBSCRIBE_LIMIT_PER_IP + 1, (i) => `198.51.100.${i + 1}`);
      expect(statuses).toEqual(allowedThenRefused(SUBSCRIBE_LIMIT_PER_IP));
      await signIn(base, OWNER.email, { clientIp: "198.51.100.30" });
      expect(await sessionAddresses(site)).toEqual(["127.0.0.1"]);
    });
  });

  describe("TRUST_PROXY as a list (nginx on loopback behind a CDN's range)", () => {
    let site: SiteWithAccounts;
    beforeAll(async () => {
      site = await startSiteWithAccounts({
        dialect,
        accounts: [OWNER],
        server: { env: { TRUST_PROXY: "loopback, 203.0.113.0/24" } },
      });
    });
    afterAll(() => site?.stop());

    it("skips the hops inside the list and counts the first address outside it", async () => {
      const base = site.server.url;
      const statuses = await subscribeStatuses(
        base,
        SUBSCRIBE_LIMIT_PER_IP + 1,
        (i) => `10.7.${i}.1, 198.51.100.40, 203.0.113.${20 + i}`,
      );
      expect(statuses).toEqual(allowedThenRefused(SUBSCRIBE_LIMIT_PER_IP));
      await signIn(base, OWNER.email, { clientIp: "6.6.6.6, 198.51.100.41, 203.0.113.9" });
      expect(await sessionAddresses(site)).toEqual(["198.51.100.41"]);
    });
  });
});
