import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from "node:dns";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * Which addresses the server may connect to on an editor's behalf: public unicast
 * only. Loopback, private (RFC 1918, unique-local), link-local (169.254/16 with the
 * cloud metadata services, fe80::/10), carrier-grade NAT, multicast, reserved and
 * documentation ranges, and IPv6 forms that embed an IPv4 address (mapped, 6to4,
 * Teredo, NAT64) are all refused; a mapped IPv4 address is judged as that IPv4 address.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === "unicast";
}

export class RefusedAddress extends Error {
  constructor(hostname: string, address: string) {
    super(`${hostname} resolves to ${address}, which is not a public address`);
    this.name = "RefusedAddress";
  }
}

/**
 * A DNS lookup for net.connect that fails unless every address the name resolves to
 * is allowed. The socket connects to the very addresses checked here: there is no
 * second resolution an attacker's DNS could answer differently (DNS rebinding).
 */
export function checkedLookup(isAllowed: (address: string) => boolean): LookupFunction {
  return (hostname, options, callback) => {
    const all: LookupAllOptions = { ...options, all: true };
    dnsLookup(hostname, all, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, "", 0);
      const refused = addresses.find((entry) => !isAllowed(entry.address));
      if (refused || addresses.length === 0) {
        return callback(new RefusedAddress(hostname, refused?.address ?? "nothing"), "", 0);
      }
      if (options.all) return callback(null, addresses);
      const [first] = addresses as [LookupAddress];
      callback(null, first.address, first.family);
    });
  };
}
