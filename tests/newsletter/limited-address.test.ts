import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  PAIR_FAILURE_LIMIT,
  PAIR_LOCKED_MESSAGE,
  recordFailedSignIn,
  signInRefusal,
} from "../../server/auth/sign-in-guard.ts";
import { limitedAddress } from "../../server/request-limits.ts";
import { type MigratedDatabase, migratedDatabase, TEST_DIALECTS } from "../helpers/databases.ts";

/**
 * The client an address stands for in the keys of limits per address
 * (server/request-limits.ts): an IPv6 host may use a new address of its /64 for each
 * request, so the /64 is what is counted; IPv4, however it is written, stays itself.
 * The newsletter's limits are checked over HTTP in tests/http/trust-proxy.test.ts.
 */

describe("the address a limit counts", () => {
  it.each([
    ["2001:db8::1", "2001:db8::/64"],
    ["2001:db8::ffff:2", "2001:db8::/64"],
    ["2001:DB8:0:0:1:2:3:4", "2001:db8::/64"],
    ["2001:db8:0:1::1", "2001:db8:0:1::/64"],
    ["2001:db8:aaaa:bbbb:cccc:dddd:eeee:ffff", "2001:db8:aaaa:bbbb::/64"],
    ["fe80::1%eth0", "fe80::/64"],
    ["::1", "::/64"],
  ])("counts IPv6 %s as its /64, %s", (address, expected) => {
    expect(limitedAddress(address)).toBe(expected);
  });

  it.each([
    ["192.0.2.1", "192.0.2.1"],
    ["::ffff:192.0.2.1", "192.0.2.1"],
    ["::FFFF:192.0.2.1", "192.0.2.1"],
    ["::ffff:c000:202", "192.0.2.2"],
  ])("counts IPv4 %s as the IPv4 address %s, not all IPv4 under one /64", (address, expected) => {
    expect(limitedAddress(address)).toBe(expected);
  });

  it("keeps what is not an address as it is", () => {
    expect(limitedAddress("unknown")).toBe("unknown");
    expect(limitedAddress("")).toBe("");
  });
});

describe.each(TEST_DIALECTS)("failed sign-ins of one account from one IPv6 /64 on %s", (dialect) => {
  let database: MigratedDatabase;
  beforeAll(async () => {
    database = await migratedDatabase(dialect);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("lock that /64 for the account, however many of its addresses they come from, and no other", async () => {
    const db = database.handle.db;
    const email = "owner@example.com";
    for (let index = 1; index <= PAIR_FAILURE_LIMIT; index += 1) {
      expect(await signInRefusal(db, email, `2001:db8::${index.toString(16)}`)).toBeNull();
      await recordFailedSignIn(db, email, `2001:db8::${index.toString(16)}`);
    }
    expect(await signInRefusal(db, email, "2001:db8::beef")).toBe(PAIR_LOCKED_MESSAGE);
    expect(await signInRefusal(db, email, "2001:db8:0:1::1")).toBeNull();
  });
});
