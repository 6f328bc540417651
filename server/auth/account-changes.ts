import { decodeJwt } from "jose";
import QRCode from "qrcode";
import type { Config } from "../config.ts";
import { Conflict, Forbidden, Invalid, NotFound, RateLimited } from "../errors.ts";
import { PHONE_NUMBER_MESSAGE } from "../sms/phone-number.ts";
import type { BastionAuth } from "./auth.ts";
import { callAuth, rateLimitMessage } from "./handler-calls.ts";
import { passwordProblem } from "./password-policy.ts";
import { PHONE_ENROL_PATH, PHONE_REMOVE_PATH } from "./phone-factor-endpoints.ts";

/**
 * The changes the account page (/admin/account) makes to the signed-in user's own
 * account. Every change goes through Better Auth's HTTP handler with the visitor's
 * cookies (decision 006), so its checks, rate limits and hooks (audit rows, password
 * rules) apply exactly as to a direct API call. Refusals are AppErrors in the page's
 * words; the cookies Better Auth sets (sessions are rotated when two-factor is turned
 * on or off, or other sessions are revoked) are collected for the response.
 */

export interface AccountPageServices {
  auth: BastionAuth;
  config: Pick<Config, "publicOrigin">;
}

/** Who asks, and where Better Auth's Set-Cookie values go. */
export interface AccountVisitor {
  services: AccountPageServices;
  viewer: { user: { id: string }; session: { id: string } };
  request: Request;
  cookies: string[];
}

export const WRONG_PASSWORD_MESSAGE = "The password is not correct.";
export const WRONG_CODE_MESSAGE = "That code is not correct. Check the time on your device and try the current code.";
export const WRONG_PHONE_CODE_MESSAGE = "That code is not correct. Check the latest text message and try again.";
export const PHONE_CODE_EXPIRED_MESSAGE = "That code has expired or was already used. Send a new code.";

/** How a refusal is told: the field of a wrong password, the text of a wrong code. */
interface RefusalWords {
  passwordField?: string;
  wrongCode?: string;
}

/**
 * Calls a Better Auth endpoint as the visitor; a refusal becomes an AppError, a wrong
 * password one of the field `passwordField` (default "password").
 */
async function callAsVisitor<T>(
  visitor: AccountVisitor,
  path: string,
  body: unknown,
  { passwordField = "password", wrongCode = WRONG_CODE_MESSAGE }: RefusalWords = {},
): Promise<T> {
  const result = await callAuth(visitor.services, visitor.request, path, body);
  visitor.cookies.push(...result.cookies);
  if (result.ok) return result.body as T;
  if (result.status === 429) throw new RateLimited(rateLimitMessage(result), result.retryAfterSeconds ?? undefined);
  const message = result.body.message || "Something went wrong. Please try again.";
  switch (result.body.code) {
    case "INVALID_PASSWORD":
      throw new Invalid({ [passwordField]: WRONG_PASSWORD_MESSAGE });
    case "INVALID_CODE":
      throw new Invalid({ code: wrongCode });
    case "SESSION_NOT_FRESH":
    case "SESSION_EXPIRED":
      throw new Forbidden("For your security, sign in again before making this change.");
    case "TOTP_ALREADY_ENABLED":
      throw new Conflict("Two-factor authentication is already turned on.");
    case "INVALID_PHONE_NUMBER":
      throw new Invalid({ phoneNumber: PHONE_NUMBER_MESSAGE });
    case "OTP_HAS_EXPIRED":
    case "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE":
      throw new Invalid({ code: PHONE_CODE_EXPIRED_MESSAGE });
  }
  if (result.status === 404) throw new NotFound(message);
  if (result.status === 401 || result.status === 403) throw new Forbidden(message);
  if (result.status < 500) throw new Invalid({}, message);
  throw new Error(`Better Auth answered ${result.status} to ${path}: ${message}`);
}

export async function updateName(visitor: AccountVisitor, name: string): Promise<void> {
  await callAsVisitor(visitor, "/update-user", { name });
}

export async function changePassword(
  visitor: AccountVisitor,
  input: { currentPassword: string; newPassword: string; revokeOtherSessions: boolean },
): Promise<void> {
  const problem = passwordProblem(input.newPassword);
  if (problem) throw new Invalid({ newPassword: problem });
  await callAsVisitor(visitor, "/change-password", input, { passwordField: "currentPassword" });
}

/** Ends one of the visitor's other sessions; false when it had already ended. */
export async function revokeSession(visitor: AccountVisitor, sessionId: string): Promise<boolean> {
  if (sessionId === visitor.viewer.session.id) {
    throw new Invalid({}, "This is the session you are using: sign out instead.");
  }
  // The form names the session by id; Better Auth revokes by token, which stays here.
  const context = await visitor.services.auth.$context;
  const sessions = await context.internalAdapter.listSessions(visitor.viewer.user.id);
  const target = sessions.find((session) => session.id === sessionId);
  if (!target) return false;
  await callAsVisitor(visitor, "/revoke-session", { token: target.token });
  return true;
}

export async function revokeOtherSessions(visitor: AccountVisitor): Promise<void> {
  await callAsVisitor(visitor, "/revoke-other-sessions", {});
}

export interface TotpEnrolment {
  /** The QR code as an SVG data: URI, rendered on the server. */
  qrCode: string;
  /** The base32 secret for typing into an app by hand. */
  secret: string;
}

/** The QR code and manual key of an otpauth:// URI. */
export async function totpEnrolment(totpURI: string): Promise<TotpEnrolment> {
  const secret = new URL(totpURI).searchParams.get("secret") ?? "";
  const svg = await QRCode.toString(totpURI, {
    type: "svg",
    errorCorrectionLevel: "M",
    margin: 2,
    color: { dark: "#000000", light: "#ffffff" },
  });
  return { qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`, secret };
}

/**
 * Starts a TOTP enrolment: what to scan. Two-factor is on only once a first code
 * confirms it (confirmTotpEnrolment); the backup codes come with that confirmation.
 */
export async function startTotpEnrolment(visitor: AccountVisitor, password: string): Promise<TotpEnrolment> {
  const { totpURI } = await callAsVisitor<{ totpURI?: string }>(visitor, "/two-factor/enable", { password });
  if (!totpURI) throw new Error("Better Auth started a two-factor enrolment without a TOTP URI.");
  return totpEnrolment(totpURI);
}

/** Confirms the enrolment waiting for its first code; the backup codes, to show once. */
export async function confirmTotpEnrolment(visitor: AccountVisitor, code: string): Promise<string[]> {
  const { auth } = visitor.services;
  const userId = visitor.viewer.user.id;
  // Only an enrolment waiting for its first code is confirmed here: a code checked when
  // two-factor is already on must not show the backup codes again.
  const context = await auth.$context;
  const pending = await context.adapter.findOne<{ verified?: boolean | null }>({
    model: "twoFactor",
    where: [{ field: "userId", value: userId }],
  });
  if (!pending) throw new NotFound("Start the two-factor setup again: it was cancelled or has expired.");
  if (pending.verified !== false) throw new Conflict("Two-factor authentication is already turned on.");
  await callAsVisitor(visitor, "/two-factor/verify-totp", { code });
  const codes = (await auth.api.viewBackupCodes({ body: { userId } })) as { backupCodes?: string[] };
  return codes.backupCodes ?? [];
}

export async function disableTotp(visitor: AccountVisitor, password: string): Promise<void> {
  await callAsVisitor(visitor, "/two-factor/disable", { password });
}

/** New backup codes (the old ones stop working), to show once. */
export async function regenerateBackupCodes(visitor: AccountVisitor, password: string): Promise<string[]> {
  const result = await callAsVisitor<{ backupCodes?: string[] }>(visitor, "/two-factor/generate-backup-codes", {
    password,
  });
  return result.backupCodes ?? [];
}

/**
 * Starts a phone enrolment: the number (checked on the server: E.164) waits for the
 * code texted to it now. Two-factor by phone is on only once that code confirms it.
 * While a send limit holds it is refused and the number before stays pending: the
 * endpoint checks the limits before storing the number. Returns the number as stored.
 */
export async function startPhoneEnrolment(
  visitor: AccountVisitor,
  input: { password: string; phoneNumber: string },
): Promise<string> {
  const { phoneNumber } = await callAsVisitor<{ phoneNumber: string }>(visitor, PHONE_ENROL_PATH, input);
  await sendPhoneCode(visitor);
  return phoneNumber;
}

/** Texts a new code to the number being enrolled (the previous one stops working). */
export async function sendPhoneCode(visitor: AccountVisitor): Promise<void> {
  await callAsVisitor(visitor, "/two-factor/send-otp", {});
}

/** Confirms the number being enrolled with the code texted to it. */
export async function confirmPhoneEnrolment(visitor: AccountVisitor, code: string): Promise<void> {
  await callAsVisitor(visitor, "/two-factor/verify-otp", { code }, { wrongCode: WRONG_PHONE_CODE_MESSAGE });
}

export async function removePhone(visitor: AccountVisitor, password: string): Promise<void> {
  await callAsVisitor(visitor, PHONE_REMOVE_PATH, { password });
}

export async function renamePasskey(visitor: AccountVisitor, input: { id: string; name: string }): Promise<void> {
  await callAsVisitor(visitor, "/passkey/update-passkey", input);
}

export async function deletePasskey(visitor: AccountVisitor, id: string): Promise<void> {
  await callAsVisitor(visitor, "/passkey/delete-passkey", { id });
}

export interface ApiToken {
  token: string;
  expiresAt: string;
}

/**
 * A JWT for API clients (decision 006): Better Auth signs one for the session in the
 * cookies, and nothing else changes. Shown once.
 */
export async function createApiToken(visitor: AccountVisitor): Promise<ApiToken> {
  let token: string | undefined;
  try {
    token = (await visitor.services.auth.api.getToken({ headers: visitor.request.headers })).token;
  } catch (error) {
    const message = (error as { body?: { message?: string } }).body?.message;
    throw new Forbidden(message || "No token was issued. Sign in again and retry.");
  }
  if (!token) throw new Forbidden("No token was issued. Sign in again and retry.");
  const { exp } = decodeJwt(token);
  return { token, expiresAt: new Date((exp ?? 0) * 1000).toISOString() };
}
