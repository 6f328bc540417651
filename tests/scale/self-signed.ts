import { generateKeyPairSync, sign } from "node:crypto";

/**
 * A throw-away self-signed certificate (ECDSA P-256, valid for a day) for nginx's TLS
 * blocks in the tests, made with node:crypto and a few lines of DER: no openssl command,
 * no key kept in the repository. An X.509 v1 certificate: nginx needs no extensions,
 * and the test's client does not verify it.
 */

function length(size: number): Buffer {
  if (size < 0x80) return Buffer.from([size]);
  const bytes: number[] = [];
  for (let rest = size; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

const tlv = (tag: number, content: Buffer) => Buffer.concat([Buffer.from([tag]), length(content.length), content]);
const sequence = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));

function integer(value: Buffer): Buffer {
  // DER integers are signed: a leading 0 keeps a high first bit positive.
  return tlv(0x02, (value[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), value]) : value);
}

function objectId(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split(".").map(Number);
  const bytes = [40 * first + second];
  for (const part of rest) {
    const groups: number[] = [];
    for (let value = part; ; value = Math.floor(value / 128)) {
      groups.unshift((value % 128) | (groups.length > 0 ? 0x80 : 0));
      if (value < 128) break;
    }
    bytes.push(...groups);
  }
  return tlv(0x06, Buffer.from(bytes));
}

function utcTime(date: Date): Buffer {
  const iso = date.toISOString();
  const text = `${iso.slice(2, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
  return tlv(0x17, Buffer.from(text, "ascii"));
}

const commonName = (name: string) => sequence(set(sequence(objectId("2.5.4.3"), tlv(0x0c, Buffer.from(name, "utf8")))));

export function selfSignedCertificate(name: string): { certificate: string; key: string } {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const ecdsaWithSha256 = sequence(objectId("1.2.840.10045.4.3.2"));
  const now = Date.now();
  const toBeSigned = sequence(
    integer(Buffer.from([0x01, ...Array.from({ length: 7 }, () => Math.floor(Math.random() * 256))])),
    ecdsaWithSha256,
    commonName(name),
    sequence(utcTime(new Date(now - 86_400_000)), utcTime(new Date(now + 86_400_000))),
    commonName(name),
    publicKey.export({ type: "spki", format: "der" }),
  );
  const signature = sign("sha256", toBeSigned, privateKey);
  const der = sequence(toBeSigned, ecdsaWithSha256, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const base64 = der.toString("base64").replace(/(.{64})/g, "$1\n");
  return {
    certificate: `-----BEGIN CERTIFICATE-----\n${base64.trimEnd()}\n-----END CERTIFICATE-----\n`,
    key: privateKey.export({ type: "pkcs8", format: "pem" }) as string,
  };
}
