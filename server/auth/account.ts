import { getAuthenticatorName } from "@better-auth/passkey";
import Bowser from "bowser";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import type { BastionAuth } from "./auth.ts";
import { findPhoneFactor, type PhoneFactor } from "./phone-factor.ts";

/**
 * What the account page (/admin/account) shows about the signed-in user's own account;
 * the changes it makes are in account-changes.ts.
 */

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
  /** The phone as a second factor: pending until a texted code confirms it. */
  phone: PhoneFactor | null;
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
  { auth, db }: { auth: BastionAuth; db: Kysely<Database> },
  userId: string,
  currentSessionId: string,
): Promise<AccountOverview> {
  const context = await auth.$context;
  const user = await context.internalAdapter.findUserById(userId);
  if (!user) throw new Error(`The signed-in user ${userId} does not exist.`);

  const [twoFactorRow, phone, sessions, passkeys] = await Promise.all([
    context.adapter.findOne<{ verified?: boolean | null }>({
      model: "twoFactor",
      where: [{ field: "userId", value: userId }],
    }),
    findPhoneFactor(db, userId),
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
  // Only a factor confirmed by a code counts (the spec): an enrolment still waiting
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
    phone,
    sessions: accountSessions,
    passkeys: accountPasskeys,
  };
}

/** The device part: the model for Apple's phones and tablets, else the operating system. */
function deviceOf(parsed: Bowser.Parser.ParsedResult): string | undefined {
  const model = parsed.platform.model;
  if (model === "iPhone" || model === "iPad") return model;
  return parsed.os.name;
}

/**
 * A short, human description of a user agent, from bowser's parse: "Chrome on Linux",
 * "Safari on iPhone", "Firefox on Windows"; "Unknown device" when there is nothing to
 * tell (no user agent, or one no browser sends).
 */
export function describeUserAgent(userAgent: string | null | undefined): string {
  if (!userAgent) return "Unknown device";
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name?.replace(/^Microsoft /, "");
  const device = deviceOf(parsed);
  if (browser && device) return `${browser} on ${device}`;
  if (browser) return browser;
  if (device) return `Browser on ${device}`;
  return "Unknown device";
}
