import type { Config } from "../config.ts";
import { type BastionAuth, CLIENT_IP_HEADER } from "./auth.ts";

/**
 * Calls a Better Auth endpoint from a route action *through its HTTP handler*, as a
 * browser would (decision 006): its rate limiter, origin check and hooks apply to every
 * attempt. The visitor's cookies, client IP and user agent are passed on; the cookies
 * Better Auth sets come back to be forwarded on the action's response.
 */

export interface AuthCallResult {
  ok: boolean;
  status: number;
  /** The parsed JSON body ({} when there is none). */
  body: Record<string, unknown> & { message?: string; code?: string };
  /** Set-Cookie header values, to forward as they are. */
  cookies: string[];
  /** Seconds before another attempt may succeed, on a 429 that says so. */
  retryAfterSeconds: number | null;
}

const FORWARDED_HEADERS = ["cookie", "user-agent", CLIENT_IP_HEADER, "accept-language"];

export async function callAuth(
  services: { auth: BastionAuth; config: Pick<Config, "publicOrigin"> },
  request: Request,
  path: string,
  body: unknown,
): Promise<AuthCallResult> {
  const headers = new Headers({ "content-type": "application/json", origin: services.config.publicOrigin });
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers.get(name);
    if (value) headers.set(name, value);
  }
  const response = await services.auth.handler(
    new Request(`${services.config.publicOrigin}/api/auth${path}`, {
      method: "POST",
      headers,
      body: JSON.stringify(body ?? {}),
    }),
  );
  const text = await response.text();
  let parsed: AuthCallResult["body"] = {};
  try {
    const value = text ? JSON.parse(text) : {};
    if (value && typeof value === "object") parsed = value;
  } catch {
    parsed = {};
  }
  const retryAfter = Number(response.headers.get("x-retry-after"));
  return {
    ok: response.ok,
    status: response.status,
    body: parsed,
    cookies: response.headers.getSetCookie(),
    retryAfterSeconds: response.status === 429 && Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
  };
}

/** Response headers carrying the cookies Better Auth set (plus any extra headers). */
export function forwardedCookies(result: Pick<AuthCallResult, "cookies">, extra?: HeadersInit): Headers {
  const headers = new Headers(extra);
  for (const cookie of result.cookies) headers.append("set-cookie", cookie);
  return headers;
}

/** "45 seconds", "1 minute", "15 minutes". */
export function describeWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/** The text of a 429: Better Auth's own limit gives a retry time; the per-account limit says it in its message. */
export function rateLimitMessage(result: AuthCallResult): string {
  if (result.retryAfterSeconds !== null) {
    return `Too many attempts. Please try again in ${describeWait(result.retryAfterSeconds)}.`;
  }
  return result.body.message || "Too many attempts. Please try again later.";
}

/** Whether the request carries Better Auth's pending two-factor cookie (after a correct password). */
export function hasTwoFactorChallenge(request: Request): boolean {
  return /(?:^|;\s*)(?:__Secure-)?bastion\.two_factor=/.test(request.headers.get("cookie") ?? "");
}
