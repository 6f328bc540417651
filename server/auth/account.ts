import { getAuthenticatorName } from "@better-auth/passkey";
import { decodeJwt } from "jose";
import QRCode from "qrcode";
import { z } from "zod";
import type { Config } from "../config.ts";
import type { BastionAuth } from "./auth.ts";
import { callAuth, rateLimitMessage } from "./handler-calls.ts";
import { passwordProblem } from "./password-policy.ts";

/**
 * The account page (/admin/account): what it shows about the signed-in user's own
 * account, and the changes it makes. Every change goes through Better Auth's HTTP
 * handler with the visitor's cookies (decision 006), so its checks, rate limits and
 * hooks (audit rows, password rules) apply exactly as to a direct API call, and the
 * cookies it sets (sessions are rotated when two-factor is turned on or off, or other
 * sessions are revoked) are forwarded to the browser.
 */

export interface AccountPageServices {
  auth: BastionAuth;
  config: Pick<Config, "publicOrigin">;
}

// ---------------------------------------------------------------------------------
// Reading the account
// ---------------------------------------------------------------------------------

export type TwoFactorState = "off" | "pending" | "on";

export interface AccountSession {
  id: string;
  current: boolean;
  /** "Chrome on Linux"; "Unknown device" without a user agent. */
  device: string;
  userAgent: string | null;
  ipAddress: string | null;
  createdAt: string;
  /** Better Auth refreshes a session at most once a day (updateAge), so this is to the day. */
  lastActiveAt: string;
  expiresAt: string;
}

export interface AccountPasskey {
  id: string;
  /** The name given at registration, else the authenticator's, else "Passkey". */
  label: string;
  name: string | null;
  createdAt: string | null;
  /** Synced (multi-device) or bound to one device. */
  synced: boolean;
}

export interface AccountOverview {
  user: { id: string; email: string; name: string };
  twoFactor: TwoFactorState;
  sessions: AccountSession[];
  passkeys: AccountPasskey[];
}

function iso(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** Everything the account page shows; tokens of sessions never leave the server. */
export async function loadAccountOverview(
  auth: BastionAuth,
  userId: string,
  currentSessionId: string,
): Promise<AccountOverview> {
  const context = await auth.$context;
  const user = await context.internalAdapter.findUserById(userId);
  if (!user) throw new Error(`The signed-in user ${userId} does not exist.`);

  const [twoFactorRow, sessions, passkeys] = await Promise.all([
    context.adapter.findOne<{ verified?: boolean | null }>({
      model: "twoFactor",
      where: [{ field: "userId", value: userId }],
    }),
    context.internalAdapter.listSessions(userId, { onlyActiveSessions: true }),
    context.adapter.findMany<{
      id: string;
      name?: string | null;
      aaguid?: string | null;
      createdAt?: Date | null;
      backedUp?: boolean | null;
      deviceType?: string | null;
    }>({ model: "passkey", where: [{ field: "userId", value: userId }] }),
  ]);

  const twoFactorEnabled = Boolean((user as { twoFactorEnabled?: boolean | null }).twoFactorEnabled);
  // Only a factor confirmed by a code counts (spec section 4): an enrolment still waiting
  // for its first code is "pending" and is not asked for at sign-in.
  const twoFactor: TwoFactorState =
    twoFactorEnabled && twoFactorRow && twoFactorRow.verified !== false ? "on" : twoFactorRow ? "pending" : "off";

  const now = Date.now();
  const accountSessions = sessions
    .filter((session) => new Date(session.expiresAt).getTime() > now)
    .map(
      (session): AccountSession => ({
        id: session.id,
        current: session.id === currentSessionId,
        device: describeUserAgent(session.userAgent),
        userAgent: session.userAgent ?? null,
        ipAddress: session.ipAddress ?? null,
        createdAt: iso(session.createdAt) ?? "",
        lastActiveAt: iso(session.updatedAt) ?? iso(session.createdAt) ?? "",
        expiresAt: iso(session.expiresAt) ?? "",
      }),
    )
    // This device first, then the most recently active.
    .sort((a, b) => Number(b.current) - Number(a.current) || b.lastActiveAt.localeCompare(a.lastActiveAt));

  const accountPasskeys = passkeys
    .map(
      (passkey): AccountPasskey => ({
        id: passkey.id,
        name: passkey.name?.trim() || null,
        label: passkey.name?.trim() || getAuthenticatorName(passkey.aaguid ?? undefined) || "Passkey",
        createdAt: iso(passkey.createdAt),
        synced: passkey.deviceType === "multiDevice" || Boolean(passkey.backedUp),
      }),
    )
    .sort((a, b) => (a.createdAt ?? "").localeCompare(b.createdAt ?? ""));

  return {
    user: { id: user.id, email: user.email, name: user.name },
    twoFactor,
    sessions: accountSessions,
    passkeys: accountPasskeys,
  };
}

/** A short, human description of a user agent: "Firefox on Windows", "Safari on iPhone". */
export function describeUserAgent(userAgent: string | null | undefined): string {
  if (!userAgent) return "Unknown device";
  const ua = userAgent;
  const browser = /Edg(A|iOS)?\//.test(ua)
    ? "Edge"
    : /OPR\//.test(ua)
      ? "Opera"
      : /Firefox\/|FxiOS\//.test(ua)
        ? "Firefox"
        : /Chrome\/|CriOS\//.test(ua)
          ? /HeadlessChrome/.test(ua)
            ? "Headless Chrome"
            : "Chrome"
          : /Safari\//.test(ua) && /Version\//.test(ua)
            ? "Safari"
            : /^curl\//.test(ua)
              ? "curl"
              : null;
  const os = /iPhone/.test(ua)
    ? "iPhone"
    : /iPad/.test(ua)
      ? "iPad"
      : /Android/.test(ua)
        ? "Android"
        : /Windows/.test(ua)
          ? "Windows"
          : /Mac OS X|Macintosh/.test(ua)
            ? "macOS"
            : /CrOS/.test(ua)
              ? "ChromeOS"
              : /Linux/.test(ua)
                ? "Linux"
                : null;
  if (browser && os) return `${browser} on ${os}`;
  if (browser) return browser;
  if (os) return `Browser on ${os}`;
  return ua.length > 60 ? `${ua.slice(0, 57)}…` : ua;
}

// ---------------------------------------------------------------------------------
// Calling Better Auth as the visitor
// ---------------------------------------------------------------------------------

export type AccountCallResult<T> =
  | { ok: true; status: number; data: T; cookies: string[] }
  | { ok: false; status: number; message: string; code: string | null; cookies: string[] };

/**
 * Calls a Better Auth endpoint through its HTTP handler as the visitor (handler-calls.ts:
 * their cookies, IP and user agent; our own Origin, the action having passed both our
 * cross-origin check and React Router's), with its refusals in the page's words.
 */
async function callAsVisitor<T>(
  services: AccountPageServices,
  request: Request,
  path: string,
  body: unknown,
): Promise<AccountCallResult<T>> {
  const result = await callAuth(services, request, path, body);
  if (result.ok) return { ok: true, status: result.status, data: result.body as T, cookies: result.cookies };
  const code = typeof result.body.code === "string" ? result.body.code : null;
  return {
    ok: false,
    status: result.status,
    message: result.status === 429 ? rateLimitMessage(result) : friendlyMessage(result.body.message ?? "", code),
    code,
    cookies: result.cookies,
  };
}

/** Better Auth's messages, reworded where they would puzzle a person. */
function friendlyMessage(message: string, code: string | null): string {
  switch (code) {
    case "INVALID_PASSWORD":
      return "The password is not correct.";
    case "INVALID_CODE":
      return "That code is not correct. Check the time on your device and try the current code.";
    case "SESSION_NOT_FRESH":
    case "SESSION_EXPIRED":
      return "For your security, sign in again before making this change.";
    case "TOTP_ALREADY_ENABLED":
      return "Two-factor authentication is already turned on.";
    default:
      return message || "Something went wrong. Please try again.";
  }
}

// ---------------------------------------------------------------------------------
// Two-factor enrolment
// ---------------------------------------------------------------------------------

export interface TotpEnrolment {
  /** The QR code as an SVG data: URI, rendered on the server (no client script needed). */
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

// ---------------------------------------------------------------------------------
// The page's actions
// ---------------------------------------------------------------------------------

export const ACCOUNT_INTENTS = [
  "update-name",
  "change-password",
  "revoke-session",
  "revoke-other-sessions",
  "totp-enable",
  "totp-verify",
  "totp-disable",
  "backup-codes",
  "passkey-rename",
  "passkey-delete",
  "api-token",
] as const;
export type AccountIntent = (typeof ACCOUNT_INTENTS)[number];

export interface AccountActionResult {
  intent: AccountIntent | "unknown";
  ok: boolean;
  /** What happened, for a status line next to the form. */
  message: string;
  fieldErrors?: Record<string, string>;
  /** totp-enable, and a failed totp-verify: what to scan. */
  enrolment?: TotpEnrolment;
  /** totp-verify and backup-codes: shown once, never again. */
  backupCodes?: string[];
  /** api-token: shown once. */
  apiToken?: { token: string; expiresAt: string };
  /** Which passkey or session the result is about. */
  targetId?: string;
  /** Distinguishes two identical results (forms reset on each success). */
  at: number;
}

export interface AccountActionOutcome {
  result: AccountActionResult;
  /** Set-Cookie values from Better Auth, for the action's response. */
  cookies: string[];
}

const nameSchema = z.string().trim().min(1, "Name is required.").max(100, "Name must be at most 100 characters long.");

function text(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

function done(
  intent: AccountIntent,
  message: string,
  extra: Partial<AccountActionResult> = {},
  cookies: string[] = [],
) {
  return { result: { intent, ok: true, message, at: Date.now(), ...extra }, cookies } satisfies AccountActionOutcome;
}

function failed(
  intent: AccountIntent | "unknown",
  message: string,
  extra: Partial<AccountActionResult> = {},
  cookies: string[] = [],
) {
  return { result: { intent, ok: false, message, at: Date.now(), ...extra }, cookies } satisfies AccountActionOutcome;
}

/** Runs one form submission of the account page for the signed-in user. */
export async function runAccountAction(
  services: AccountPageServices,
  viewer: { user: { id: string }; session: { id: string } },
  request: Request,
  form: FormData,
): Promise<AccountActionOutcome> {
  const intent = text(form, "intent") as AccountIntent;
  if (!ACCOUNT_INTENTS.includes(intent)) return failed("unknown", "Unknown action.");
  const call = <T>(path: string, body: unknown) => callAsVisitor<T>(services, request, path, body);

  switch (intent) {
    case "update-name": {
      const parsed = nameSchema.safeParse(text(form, "name"));
      if (!parsed.success) {
        const message = parsed.error.issues[0]?.message ?? "Invalid name.";
        return failed(intent, message, { fieldErrors: { name: message } });
      }
      const result = await call("/update-user", { name: parsed.data });
      if (!result.ok) return failed(intent, result.message, {}, result.cookies);
      return done(intent, "Your name has been updated.", {}, result.cookies);
    }

    case "change-password": {
      const currentPassword = text(form, "currentPassword");
      const newPassword = text(form, "newPassword");
      const confirmPassword = text(form, "confirmPassword");
      const fieldErrors: Record<string, string> = {};
      if (!currentPassword) fieldErrors.currentPassword = "Enter your current password.";
      const problem = passwordProblem(newPassword);
      if (problem) fieldErrors.newPassword = problem;
      else if (newPassword === currentPassword)
        fieldErrors.newPassword = "Choose a password different from the current one.";
      if (!fieldErrors.newPassword && confirmPassword !== newPassword) {
        fieldErrors.confirmPassword = "The two new passwords do not match.";
      }
      if (Object.keys(fieldErrors).length > 0) {
        return failed(intent, "The password was not changed.", { fieldErrors });
      }
      const revokeOtherSessions = form.get("revokeOtherSessions") === "on";
      const result = await call("/change-password", { currentPassword, newPassword, revokeOtherSessions });
      if (!result.ok) {
        const extra = result.code === "INVALID_PASSWORD" ? { fieldErrors: { currentPassword: result.message } } : {};
        return failed(intent, result.message, extra, result.cookies);
      }
      return done(
        intent,
        revokeOtherSessions
          ? "Your password has been changed and your other sessions signed out."
          : "Your password has been changed.",
        {},
        result.cookies,
      );
    }

    case "revoke-session": {
      const sessionId = text(form, "sessionId");
      if (sessionId === viewer.session.id) {
        return failed(intent, "This is the session you are using: sign out instead.", { targetId: sessionId });
      }
      // The form names the session by id; Better Auth revokes by token, which stays here.
      const context = await services.auth.$context;
      const sessions = await context.internalAdapter.listSessions(viewer.user.id);
      const target = sessions.find((session) => session.id === sessionId);
      if (!target) return done(intent, "That session has already ended.", { targetId: sessionId });
      const result = await call("/revoke-session", { token: target.token });
      if (!result.ok) return failed(intent, result.message, { targetId: sessionId }, result.cookies);
      return done(intent, "The session has been signed out.", { targetId: sessionId }, result.cookies);
    }

    case "revoke-other-sessions": {
      const result = await call("/revoke-other-sessions", {});
      if (!result.ok) return failed(intent, result.message, {}, result.cookies);
      return done(intent, "All your other sessions have been signed out.", {}, result.cookies);
    }

    case "totp-enable": {
      const password = text(form, "password");
      if (!password) {
        const message = "Enter your password to set up two-factor authentication.";
        return failed(intent, message, { fieldErrors: { password: message } });
      }
      const result = await call<{ totpURI?: string }>("/two-factor/enable", { password });
      if (!result.ok) {
        const extra = result.code === "INVALID_PASSWORD" ? { fieldErrors: { password: result.message } } : {};
        return failed(intent, result.message, extra, result.cookies);
      }
      if (!result.data.totpURI) return failed(intent, "Two-factor setup could not start.", {}, result.cookies);
      // The backup codes returned now are shown only once the first code has confirmed
      // the app (an enrolment that is never confirmed has no use for them).
      const enrolment = await totpEnrolment(result.data.totpURI);
      return done(intent, "Scan the QR code, then enter the code your app shows.", { enrolment }, result.cookies);
    }

    case "totp-verify": {
      const code = text(form, "code").replace(/\s+/g, "");
      // The secret comes back from the form only to show the same QR code again after a
      // mistyped code; Better Auth checks the code against the secret it stored.
      const secret = text(form, "secret");
      const again = async (message: string, cookies: string[] = []) =>
        failed(
          intent,
          message,
          {
            fieldErrors: { code: message },
            enrolment: /^[A-Z2-7]{16,128}$/.test(secret)
              ? await enrolmentForSecret(secret, request, services)
              : undefined,
          },
          cookies,
        );
      if (!/^\d{6}$/.test(code)) return again("Enter the 6-digit code from your authenticator app.");
      // Only an enrolment waiting for its first code is confirmed here: a code checked when
      // two-factor is already on must not show the backup codes again.
      const context = await services.auth.$context;
      const pending = await context.adapter.findOne<{ verified?: boolean | null }>({
        model: "twoFactor",
        where: [{ field: "userId", value: viewer.user.id }],
      });
      if (!pending) return failed(intent, "Start the two-factor setup again: it was cancelled or has expired.");
      if (pending.verified !== false) return failed(intent, "Two-factor authentication is already turned on.");
      const result = await call("/two-factor/verify-totp", { code });
      if (!result.ok) return again(result.message, result.cookies);
      const codes = (await services.auth.api.viewBackupCodes({ body: { userId: viewer.user.id } })) as {
        backupCodes?: string[];
      };
      return done(
        intent,
        "Two-factor authentication is on. Save your backup codes now: they are shown only once.",
        { backupCodes: codes.backupCodes ?? [] },
        result.cookies,
      );
    }

    case "totp-disable": {
      const password = text(form, "password");
      if (!password) {
        const message = "Enter your password to turn off two-factor authentication.";
        return failed(intent, message, { fieldErrors: { password: message } });
      }
      const result = await call("/two-factor/disable", { password });
      if (!result.ok) {
        const extra = result.code === "INVALID_PASSWORD" ? { fieldErrors: { password: result.message } } : {};
        return failed(intent, result.message, extra, result.cookies);
      }
      return done(intent, "Two-factor authentication is off.", {}, result.cookies);
    }

    case "backup-codes": {
      const password = text(form, "password");
      if (!password) {
        const message = "Enter your password to create new backup codes.";
        return failed(intent, message, { fieldErrors: { password: message } });
      }
      const result = await call<{ backupCodes?: string[] }>("/two-factor/generate-backup-codes", { password });
      if (!result.ok) {
        const extra = result.code === "INVALID_PASSWORD" ? { fieldErrors: { password: result.message } } : {};
        return failed(intent, result.message, extra, result.cookies);
      }
      return done(
        intent,
        "New backup codes created; the old ones no longer work. Save these now: they are shown only once.",
        { backupCodes: result.data.backupCodes ?? [] },
        result.cookies,
      );
    }

    case "passkey-rename": {
      const id = text(form, "passkeyId");
      const parsed = z
        .string()
        .trim()
        .min(1, "Name is required.")
        .max(64, "At most 64 characters.")
        .safeParse(text(form, "name"));
      if (!parsed.success) {
        const message = parsed.error.issues[0]?.message ?? "Invalid name.";
        return failed(intent, message, { fieldErrors: { name: message }, targetId: id });
      }
      const result = await call("/passkey/update-passkey", { id, name: parsed.data });
      if (!result.ok) return failed(intent, result.message, { targetId: id }, result.cookies);
      return done(intent, "Passkey renamed.", { targetId: id }, result.cookies);
    }

    case "passkey-delete": {
      const id = text(form, "passkeyId");
      const result = await call("/passkey/delete-passkey", { id });
      if (!result.ok) return failed(intent, result.message, { targetId: id }, result.cookies);
      return done(intent, "Passkey removed.", { targetId: id }, result.cookies);
    }

    case "api-token": {
      // A read for the session holder (decision 006): Better Auth signs a JWT for the
      // session in the cookies, and nothing else changes.
      let token: string | undefined;
      try {
        token = (await services.auth.api.getToken({ headers: request.headers })).token;
      } catch (error) {
        const message = (error as { body?: { message?: string } }).body?.message;
        return failed(intent, message || "No token was issued. Sign in again and retry.");
      }
      if (!token) return failed(intent, "No token was issued. Sign in again and retry.");
      const { exp } = decodeJwt(token);
      const expiresAt = new Date((exp ?? 0) * 1000).toISOString();
      return done(intent, "API token created. Copy it now: it is shown only once.", { apiToken: { token, expiresAt } });
    }
  }
}

/** The QR code for a secret being enrolled, for showing again after a mistyped code. */
async function enrolmentForSecret(
  secret: string,
  request: Request,
  services: AccountPageServices,
): Promise<TotpEnrolment | undefined> {
  const session = await services.auth.api.getSession({ headers: request.headers });
  if (!session) return undefined;
  const issuer = "Bastion";
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(session.user.email)}`;
  const params = new URLSearchParams({ secret, issuer, digits: "6", period: "30" });
  return totpEnrolment(`otpauth://totp/${label}?${params}`);
}
