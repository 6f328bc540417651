import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../server/config.ts";
import { clientAddress, compileTrust, fromTrustedProxy, isSecure } from "../../server/http/client-address.ts";
import { configError } from "../helpers/config-error.ts";

/**
 * TRUST_PROXY's forms (server/http/client-address.ts) and what each makes of a request:
 * the client is the right-most X-Forwarded-For entry that no trusted proxy added.
 */

const FORMS =
  "TRUST_PROXY must be false, a number of proxy hops from 1 to 10, or a comma-separated list of proxy addresses, CIDR ranges and the names loopback, linklocal, uniquelocal";

/** A request as the server sees it: the socket's peer and the headers it sent. */
function request(peer: string, headers: Record<string, string> = {}): IncomingMessage {
  return {
    socket: { remoteAddress: peer },
    headers,
    connection: { remoteAddress: peer },
  } as unknown as IncomingMessage;
}

const addressWith = (trustProxy: string, peer: string, forwardedFor?: string) =>
  clientAddress(
    request(peer, forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor }),
    compileTrust(loadConfig({ TRUST_PROXY: trustProxy }).trustProxy),
  );

describe("TRUST_PROXY", () => {
  it.each([
    [undefined, false],
    ["", false],
    ["false", false],
    ["0", false],
    ["off", false],
    ["1", 1],
    ["2", 2],
    ["10", 10],
    // "true" trusted every hop before; it now means the one proxy in front.
    ["true", 1],
    ["TRUE", 1],
    ["loopback", ["loopback"]],
    ["loopback, 203.0.113.0/24", ["loopback", "203.0.113.0/24"]],
    ["10.0.0.1,2001:db8::/32,uniquelocal,linklocal", ["10.0.0.1", "2001:db8::/32", "uniquelocal", "linklocal"]],
    ["192.168.0.0/255.255.0.0", ["192.168.0.0/255.255.0.0"]],
  ])("%o is parsed as %o", (value, expected) => {
    expect(loadConfig(value === undefined ? {} : { TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it.each([
    ["11", "TRUST_PROXY must be a number of proxy hops from 1 to 10 (got 11)"],
    [
      "maybe",
      `TRUST_PROXY: "maybe" is not an IP address, a CIDR range or one of loopback, linklocal, uniquelocal; ${FORMS}`,
    ],
    ["-1", `TRUST_PROXY: "-1" is not an IP address, a CIDR range or one of loopback, linklocal, uniquelocal; ${FORMS}`],
    [
      "1.5",
      `TRUST_PROXY: "1.5" is not an IP address, a CIDR range or one of loopback, linklocal, uniquelocal; ${FORMS}`,
    ],
    [
      "10.0.0.0/33",
      `TRUST_PROXY: "10.0.0.0/33" is not an IP address, a CIDR range or one of loopback, linklocal, uniquelocal; ${FORMS}`,
    ],
    [
      "loopback,300.1.1.1",
      `TRUST_PROXY: "300.1.1.1" is not an IP address, a CIDR range or one of loopback, linklocal, uniquelocal; ${FORMS}`,
    ],
    // proxy-addr alone would read these as the addresses 0.0.0.1 and 0.0.0.2.
    ["1,2", `TRUST_PROXY: "1" is not an IP address, a CIDR range or one of loopback, linklocal, uniquelocal; ${FORMS}`],
    [
      "loopback, 2/8",
      `TRUST_PROXY: "2/8" is not an IP address, a CIDR range or one of loopback, linklocal, uniquelocal; ${FORMS}`,
    ],
    [
      "loopback,,10.0.0.1",
      `TRUST_PROXY has an empty entry in its list: it must be ${FORMS.slice("TRUST_PROXY must be ".length)}`,
    ],
  ])("%o is refused: %s", (value, message) => {
    const actual = configError({ TRUST_PROXY: value });
    expect(actual).toBe(message);
    expect(actual).not.toContain("\n");
  });
});

describe("the client's address", () => {
  it("is the socket's peer when TRUST_PROXY is off, whatever X-Forwarded-For says", () => {
    expect(addressWith("false", "127.0.0.1", "198.51.100.9")).toBe("127.0.0.1");
    expect(addressWith("false", "203.0.113.5")).toBe("203.0.113.5");
  });

  it("is the right-most entry with one hop trusted, so a client cannot choose it by writing the left part", () => {
    // nginx appends the address it saw: whatever the client wrote stays on the left.
    expect(addressWith("1", "127.0.0.1", "198.51.100.9")).toBe("198.51.100.9");
    expect(addressWith("1", "127.0.0.1", "1.2.3.4, 198.51.100.9")).toBe("198.51.100.9");
    expect(addressWith("true", "127.0.0.1", "5.6.7.8, 198.51.100.9")).toBe("198.51.100.9");
    expect(addressWith("2", "127.0.0.1", "1.2.3.4, 198.51.100.9, 203.0.113.20")).toBe("198.51.100.9");
  });

  it("skips the hops inside a CIDR list and stops at the first one outside it", () => {
    const cdnAndNginx = "loopback, 203.0.113.0/24";
    expect(addressWith(cdnAndNginx, "127.0.0.1", "6.6.6.6, 198.51.100.9, 203.0.113.20")).toBe("198.51.100.9");
    expect(addressWith(cdnAndNginx, "127.0.0.1", "198.51.100.9, 203.0.113.20, 203.0.113.21")).toBe("198.51.100.9");
    // A peer outside the list is the client itself, even if it claims otherwise.
    expect(addressWith(cdnAndNginx, "198.51.100.77", "198.51.100.9")).toBe("198.51.100.77");
  });

  it("believes X-Forwarded-Proto only from a trusted proxy", () => {
    const trust = compileTrust(["loopback"]);
    expect(isSecure(request("127.0.0.1", { "x-forwarded-proto": "https" }), trust)).toBe(true);
    expect(isSecure(request("127.0.0.1", { "x-forwarded-proto": "http" }), trust)).toBe(false);
    expect(isSecure(request("198.51.100.9", { "x-forwarded-proto": "https" }), trust)).toBe(false);
    expect(isSecure(request("127.0.0.1", { "x-forwarded-proto": "https" }), compileTrust(false))).toBe(false);
    expect(fromTrustedProxy(request("::1"), trust)).toBe(true);
    expect(fromTrustedProxy(request("::ffff:127.0.0.1"), trust)).toBe(true);
  });
});
