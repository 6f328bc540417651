import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESET_REQUEST_ANSWER_FLOOR_MS } from "../../server/auth/auth.ts";
import { SUBSCRIBE_ANSWER_FLOOR_MS } from "../../server/newsletter/api.ts";
import { type SiteWithAccounts, startSiteWithAccounts } from "../helpers/accounts.ts";

/**
 * Whether an account or an active subscription exists must not show in how long the
 * answer takes. Requests for an existing and an unknown address are interleaved in
 * pairs (so the machine's load hits both alike): both must leave at the answer floor,
 * their medians within the timer's jitter, and neither must be the slower one in most
 * pairs (before the floor, a reset for a real account was slower in 48 of 60 pairs).
 *
 * Which of a pair goes first is drawn at random, half of the pairs each way. Strict
 * alternation repeats every four requests (about a second), so anything that recurs in
 * step with it, in the server (its polls and flushes) or on the machine, would fall on
 * requests of one kind more than the other and could pass for a leak.
 */

const PAIRS = 30;
const OWNER = { email: "tilda.timing@example.com", name: "Tilda Timing", role: "admin" as const };
/** An account whose hourly allowance of reset emails the timing pairs do not use up. */
const MAILED = { email: "milo.mailed@example.com", name: "Milo Mailed", role: "editor" as const };
const activeAddress = (index: number) => `active-${index}@example.com`;

let site: SiteWithAccounts;
let client = 0;

beforeAll(async () => {
  site = await startSiteWithAccounts({
    dialect: "sqlite",
    accounts: [OWNER, MAILED],
    server: { env: { TRUST_PROXY: "1" } },
    seed: async ({ db }) => {
      const now = new Date().toISOString();
      await db
        .insertInto("newsletter_subscribers")
        .values(
          Array.from({ length: PAIRS }, (_, index) => ({
            id: `timing-subscriber-${index}`,
            email: activeAddress(index),
            status: "active" as const,
            confirmed_at: now,
            consent_at: now,
            consent_source: "api" as const,
          })),
        )
        .execute();
    },
  });
});

afterAll(async () => {
  await site?.stop();
});

/** Milliseconds from sending to the whole answer, each request from its own address (no per-IP limit). */
async function timed(path: string, body: unknown): Promise<number> {
  client++;
  const started = performance.now();
  const response = await fetch(`${site.server.url}${path}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Origin: site.server.url,
      "X-Forwarded-For": `10.77.${client >> 8}.${client & 255}`,
    },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  expect(response.status, path).toBe(200);
  return performance.now() - started;
}

/** Whether the known address goes first, for each pair: half of each, in a random order. */
function knownFirstOrder(): boolean[] {
  const order = Array.from({ length: PAIRS }, (_, index) => index < PAIRS / 2);
  for (let index = order.length - 1; index > 0; index--) {
    const other = Math.floor(Math.random() * (index + 1));
    [order[index], order[other]] = [order[other] as boolean, order[index] as boolean];
  }
  return order;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

function expectIndistinguishable(known: number[], unknown: number[], floorMs: number) {
  expect(Math.min(...known, ...unknown)).toBeGreaterThanOrEqual(floorMs - 1);
  // Each pair ran back to back, so the machine's load weighs on both of its requests: the
  // median of the differences within pairs is what a leak would move, not the load's
  // drift across the run (a difference of the two medians failed at 11.9 ms on a busy
  // machine). Jitter reaches milliseconds; the floor and the pair count carry the proof.
  expect(Math.abs(median(known.map((duration, index) => duration - (unknown[index] as number))))).toBeLessThan(10);
  const knownSlower = known.filter((duration, index) => duration > (unknown[index] as number)).length;
  expect(knownSlower).toBeGreaterThanOrEqual(Math.round(PAIRS * 0.2));
  expect(knownSlower).toBeLessThanOrEqual(Math.round(PAIRS * 0.8));
}

describe("answers that would tell whether an address is known", () => {
  // Only a known account's reset, or a new subscriber, gets an email: its sending must not
  // fall within the held answer's time.
  it.each([
    { kind: "password-reset", path: "/api/auth/request-password-reset", email: MAILED.email },
    { kind: "newsletter-confirmation", path: "/api/newsletter/subscribe", email: "mailed-subscriber@example.com" },
  ])("sends the $kind email only after the answer has left", async ({ kind, path, email }) => {
    await timed(path, { email });
    const answeredAt = Date.now();
    const sent = await site.server.waitForLog((line) => line.kind === kind && line.to === email);
    expect(Date.parse(String(sent.time))).toBeGreaterThanOrEqual(answeredAt);
  });

  it("takes as long to answer a reset request for an account as for an unknown address", async () => {
    const known: number[] = [];
    const unknown: number[] = [];
    const knownFirst = knownFirstOrder();
    for (let pair = 0; pair < PAIRS; pair++) {
      const request = (email: string) => timed("/api/auth/request-password-reset", { email });
      const order = knownFirst[pair];
      const first = await request(order ? OWNER.email : `nobody-${pair}@example.com`);
      const second = await request(order ? `nobody-${pair}@example.com` : OWNER.email);
      known.push(order ? first : second);
      unknown.push(order ? second : first);
    }
    expectIndistinguishable(known, unknown, RESET_REQUEST_ANSWER_FLOOR_MS);
  }, 120_000);

  it("takes as long to answer a subscription for an active address as for a new one", async () => {
    const known: number[] = [];
    const unknown: number[] = [];
    const knownFirst = knownFirstOrder();
    for (let pair = 0; pair < PAIRS; pair++) {
      const subscribe = (email: string) => timed("/api/newsletter/subscribe", { email });
      const order = knownFirst[pair];
      const first = await subscribe(order ? activeAddress(pair) : `new-${pair}@example.com`);
      const second = await subscribe(order ? `new-${pair}@example.com` : activeAddress(pair));
      known.push(order ? first : second);
      unknown.push(order ? second : first);
    }
    expectIndistinguishable(known, unknown, SUBSCRIBE_ANSWER_FLOOR_MS);
  }, 120_000);
});
