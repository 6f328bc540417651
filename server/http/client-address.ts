import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";
import type { TLSSocket } from "node:tls";
import proxyaddr from "proxy-addr";

/**
 * Who sent a request, behind zero or more reverse proxies (docs/decisions/014-client-address-behind-proxies.md).
 * Everything that needs the client's address (Express's req.ip and req.secure, the page
 * cache's fast path, the newsletter's per-IP limits, Better Auth's rate limits and
 * session records) computes it here, from TRUST_PROXY, with proxy-addr, the library
 * Express itself uses: the right-most X-Forwarded-For entry that no trusted proxy
 * added. The left-most entry, which any client can write, is never taken on trust.
 */

/** TRUST_PROXY parsed: off, a number of proxy hops, or the proxies' addresses, CIDR ranges and names. */
export type TrustProxy = false | number | readonly string[];

/** Whether the hop at `index` (0: the socket's peer) is a proxy whose X-Forwarded-* headers are believed. */
export type TrustFunction = (address: string, index: number) => boolean;

export const PROXY_NAMES = ["loopback", "linklocal", "uniquelocal"] as const;
export const MAX_PROXY_HOPS = 10;

const ACCEPTED_FORMS = `false, a number of proxy hops from 1 to ${MAX_PROXY_HOPS}, or a comma-separated list of proxy addresses, CIDR ranges and the names ${PROXY_NAMES.join(", ")}`;

const OFF = new Set(["false", "0", "no", "off"]);
/**
 * "true" trusted every hop before: any client could then choose its address by writing
 * the left-most X-Forwarded-For entry. It now means one proxy, the usual set-up.
 */
const ONE_HOP = new Set(["true", "yes", "on"]);

/** Parses TRUST_PROXY; throws an Error whose message names the variable and the accepted forms. */
export function parseTrustProxy(value: string): TrustProxy {
  const text = value.trim().toLowerCase();
  if (text === "" || OFF.has(text)) return false;
  if (ONE_HOP.has(text)) return 1;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > MAX_PROXY_HOPS) {
      throw new Error(`TRUST_PROXY must be a number of proxy hops from 1 to ${MAX_PROXY_HOPS} (got ${text})`);
    }
    return hops;
  }
  const entries = text.split(",").map((entry) => entry.trim());
  if (entries.some((entry) => entry === "")) {
    throw new Error(`TRUST_PROXY has an empty entry in its list: it must be ${ACCEPTED_FORMS}`);
  }
  for (const entry of entries) {
    if ((PROXY_NAMES as readonly string[]).includes(entry)) continue;
    try {
      // proxy-addr reads a bare number as an IPv4 address ("1" is 0.0.0.1): "1,2", meant
      // as hop counts, would trust two addresses that never occur.
      if (isIP(entry.split("/")[0] as string) === 0) throw new Error("not an address");
      proxyaddr.compile(entry);
    } catch {
      throw new Error(
        `TRUST_PROXY: "${entry}" is not an IP address, a CIDR range or one of ${PROXY_NAMES.join(", ")}; TRUST_PROXY must be ${ACCEPTED_FORMS}`,
      );
    }
  }
  return entries;
}

/** The trust function of a setting, as Express builds it for its "trust proxy" setting. */
export function compileTrust(setting: TrustProxy): TrustFunction {
  if (setting === false || setting === 0) return () => false;
  if (typeof setting === "number") return (_address, index) => index < setting;
  return proxyaddr.compile([...setting]);
}

/** The client's address: the socket's peer, or the right-most X-Forwarded-For entry no trusted proxy added. */
export function clientAddress(req: IncomingMessage, trust: TrustFunction): string {
  return proxyaddr(req, trust) ?? "";
}

/** Whether the request came straight from a trusted proxy, whose X-Forwarded-* and X-Request-Id headers count. */
export function fromTrustedProxy(req: IncomingMessage, trust: TrustFunction): boolean {
  const peer = req.socket.remoteAddress;
  return peer !== undefined && trust(peer, 0);
}

/** Express's req.secure: TLS on this socket, or (from a trusted proxy only) the first X-Forwarded-Proto. */
export function isSecure(req: IncomingMessage, trust: TrustFunction): boolean {
  if ((req.socket as TLSSocket).encrypted) return true;
  if (!fromTrustedProxy(req, trust)) return false;
  const forwarded = req.headers["x-forwarded-proto"];
  return typeof forwarded === "string" && forwarded.split(",")[0]?.trim() === "https";
}
