import { createHash } from "node:crypto";
import type { OutgoingHttpHeaders } from "node:http";

/**
 * A cached page goes to every visitor for as long as it is kept, so the nonce of the
 * render that produced it would be a nonce anyone can read and reuse: an injected
 * script carrying it would run. Before a page is kept, its nonce goes: the inline
 * scripts it allows are allowed by their SHA-256 hashes instead (CSP Level 2), the
 * `nonce` attributes are removed, and scripts loaded from the site itself stay allowed
 * by 'self'. The page's text and behaviour are otherwise unchanged.
 */

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

/** The body and headers of a rendered page with its nonce replaced by script hashes. */
export function replaceNonceWithHashes(
  headers: OutgoingHttpHeaders,
  body: Buffer,
  nonce: string,
): { headers: OutgoingHttpHeaders; body: Buffer } {
  const policy = headers["content-security-policy"];
  const nonceSource = `'nonce-${nonce}'`;
  if (typeof policy !== "string" || !policy.includes(nonceSource)) return { headers, body };

  const html = body.toString("utf8").replaceAll(` nonce="${nonce}"`, "");
  const hashes = new Set<string>();
  for (const [, attributes, content] of html.matchAll(INLINE_SCRIPT)) {
    if (/\bsrc\s*=/i.test(attributes ?? "")) continue;
    hashes.add(
      `'sha256-${createHash("sha256")
        .update(content ?? "", "utf8")
        .digest("base64")}'`,
    );
  }
  const hashed = policy.replace(nonceSource, [...hashes].join(" ")).replace(/ +;/g, ";");
  return { headers: { ...headers, "content-security-policy": hashed }, body: Buffer.from(html, "utf8") };
}
