import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Newsletter tokens. Confirmation tokens are 256-bit random values stored only as
 * their SHA-256; unsubscribe tokens are `base64url(subscriber id).HMAC(secret, id)`,
 * checked in constant time, and never expire.
 */

export const CONFIRMATION_TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function newConfirmationToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashToken(token) };
}

function hmac(secret: string, purpose: string, value: string): Buffer {
  return createHmac("sha256", secret).update(`${purpose}:${value}`).digest();
}

export function unsubscribeToken(secret: string, subscriberId: string): string {
  const id = Buffer.from(subscriberId, "utf8").toString("base64url");
  return `${id}.${hmac(secret, "newsletter-unsubscribe", subscriberId).toString("base64url")}`;
}

/** The subscriber id the token was made for, or null when it is not one of ours. */
export function verifyUnsubscribeToken(secret: string, token: string): string | null {
  const match = /^([A-Za-z0-9_-]{1,200})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const subscriberId = Buffer.from(match[1] as string, "base64url").toString("utf8");
  // Compared as text, so that a last character differing only in its unused bits (which
  // decodes to the same bytes) is refused: one subscriber, one valid token.
  const given = Buffer.from(match[2] as string, "utf8");
  const expected = Buffer.from(hmac(secret, "newsletter-unsubscribe", subscriberId).toString("base64url"), "utf8");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return subscriberId;
}

/** The page that unsubscribes this subscriber (also the List-Unsubscribe target). */
export function unsubscribeUrl(config: { publicOrigin: string }, secret: string, subscriberId: string): string {
  return `${config.publicOrigin}/newsletter/unsubscribe?${new URLSearchParams({ token: unsubscribeToken(secret, subscriberId) })}`;
}

/** RFC 8058 one-click target: the API endpoint, which unsubscribes on POST at once. */
export function oneClickUnsubscribeUrl(config: { publicOrigin: string }, secret: string, subscriberId: string): string {
  return `${config.publicOrigin}/api/newsletter/unsubscribe?${new URLSearchParams({ token: unsubscribeToken(secret, subscriberId) })}`;
}

/** List-Unsubscribe headers for a newsletter email to this subscriber. */
export function listUnsubscribeHeaders(
  config: { publicOrigin: string },
  secret: string,
  subscriberId: string,
): Record<string, string> {
  return {
    "List-Unsubscribe": `<${oneClickUnsubscribeUrl(config, secret, subscriberId)}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  };
}

/** Keyed hash of the client's IP for the consent record: the IP itself is never stored. */
export function hashIp(secret: string, ip: string): string {
  return hmac(secret, "consent-ip", ip).toString("hex");
}

/** The shared secret the bounce webhook expects, derived from the server secret. */
export function bounceWebhookSecret(secret: string): string {
  return hmac(secret, "bounce-webhook", "v1").toString("hex");
}

/** Constant-time comparison of two strings (false when the lengths differ). */
export function safeEqual(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}
