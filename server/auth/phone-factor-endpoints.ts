import type { BetterAuthPlugin, GenericEndpointContext } from "@better-auth/core";
import { createAuthEndpoint, createAuthMiddleware } from "@better-auth/core/api";
import { APIError } from "@better-auth/core/error";
import { getSessionFromCtx, sensitiveSessionMiddleware } from "better-auth/api";
import type { Kysely } from "kysely";
import { z } from "zod";
import type { Database } from "../db/schema.ts";
import { Conflict } from "../errors.ts";
import { toE164 } from "../sms/e164.ts";
import { maskPhoneNumber, PHONE_NUMBER_MESSAGE } from "../sms/phone-number.ts";
import { auditPhoneFactor, succeeded } from "./account-audit.ts";
import {
  confirmPhoneFactor,
  findPhoneFactor,
  queuePhoneCode,
  removePhoneFactor,
  setPendingPhoneNumber,
  smsLimitProblem,
} from "./phone-factor.ts";

/**
 * The phone as Better Auth's third second factor, beside the authenticator app and
 * passkeys. The codes are the two-factor plugin's OTPs (`otpOptions`: sent through
 * `phoneCodeSender` below, stored hashed, single-use, expiring); this plugin adds what
 * that plugin leaves open:
 * - enrolling a number (with the password, within the send limits, dropping codes
 *   texted to the number before) and removing it, as endpoints;
 * - texting a code only to an account that has a number (the plugin offers codes to
 *   every account with two-factor on), within the per-number and per-account limits;
 * - confirming the number when a code sent to it is entered while signed in, which is
 *   also when Better Auth turns two-factor on (`twoFactorEnabled`) for an account
 *   whose only factor is the phone;
 * - keeping two-factor on when the authenticator app is turned off but the phone
 *   remains, and off when the phone is removed and no app remains;
 * - which factors a pending sign-in may use, for the sign-in's second step.
 */

export const PHONE_ENROL_PATH = "/phone-factor/enrol";
export const PHONE_REMOVE_PATH = "/phone-factor/remove";
export const SIGN_IN_FACTORS_PATH = "/phone-factor/sign-in-factors";

/** Better Auth's cookie holding a sign-in between the password and the second factor. */
const TWO_FACTOR_COOKIE = "two_factor";

const text = z.string().max(1000);

export const NO_PHONE_FACTOR_MESSAGE = "No phone number is set up for this account.";

/** What a pending sign-in may use as its second factor. */
export interface SignInFactors {
  authenticator: boolean;
  backupCodes: boolean;
  /** The confirmed number, masked ("•••• 0123"), or null. */
  phone: string | null;
}

type Context = GenericEndpointContext;

/** The password again, as Better Auth's own two-factor endpoints check it. */
async function checkPassword(ctx: Context, userId: string, password: string): Promise<void> {
  const account = await ctx.context.internalAdapter.findCredentialAccount(userId);
  const valid = account?.password ? await ctx.context.password.verify({ hash: account.password, password }) : false;
  if (!valid) throw new APIError("BAD_REQUEST", { message: "Invalid password", code: "INVALID_PASSWORD" });
}

/** The user of the sign-in waiting for its second factor (Better Auth's two_factor cookie), if any. */
export async function pendingSignInUserId(ctx: Context): Promise<string | null> {
  const cookie = ctx.context.createAuthCookie(TWO_FACTOR_COOKIE);
  const identifier = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
  if (!identifier) return null;
  const pending = await ctx.context.internalAdapter.findVerificationValue(identifier);
  if (!pending || new Date(pending.expiresAt).getTime() <= Date.now()) return null;
  return pending.value;
}

/** Better Auth's own refusal when no sign-in waits for its second factor (none began, or it expired). */
function noPendingSignIn(): APIError {
  return new APIError("UNAUTHORIZED", { message: "Invalid two factor cookie", code: "INVALID_TWO_FACTOR_COOKIE" });
}

async function authenticatorOf(ctx: Context, userId: string) {
  return ctx.context.adapter.findOne<{ verified?: boolean | null }>({
    model: "twoFactor",
    where: [{ field: "userId", value: userId }],
  });
}

/**
 * Who a code is for: the signed-in user (enrolling: a pending number will do), or the
 * user of a pending sign-in (a confirmed number only). Refuses an account without one,
 * and a sign-in that has expired as Better Auth does (the sign-in page then asks to
 * start again, rather than saying the account has no number).
 */
async function codeRecipient(ctx: Context, db: Kysely<Database>) {
  const session = await getSessionFromCtx(ctx);
  const userId = session?.user.id ?? (await pendingSignInUserId(ctx));
  if (!userId) throw noPendingSignIn();
  const factor = await findPhoneFactor(db, userId);
  if (!factor || (!session && !factor.verified)) {
    throw new APIError("BAD_REQUEST", { message: NO_PHONE_FACTOR_MESSAGE, code: "NO_PHONE_FACTOR" });
  }
  return { userId, factor };
}

/**
 * Drops the codes texted while signed in (stored per session), after a new number is
 * stored: the code does not say which number it was sent to, so one texted to the
 * number before would confirm the new one, never proven, and lock a phone-only account
 * out. Run after the number is stored, so that a code sent while it was being stored
 * goes too: only a code texted from now on, to the new number, confirms it.
 */
async function forgetEnrolmentCodes(ctx: Context, userId: string, currentSessionId: string): Promise<void> {
  const sessions = await ctx.context.internalAdapter.listSessions(userId);
  const sessionIds = new Set([currentSessionId, ...sessions.map((session) => session.id)]);
  for (const sessionId of sessionIds) {
    await ctx.context.internalAdapter.deleteVerificationByIdentifier(`2fa-otp-${userId}!${sessionId}`);
  }
}

/** The two-factor plugin's `otpOptions.sendOTP`: the code goes to the outbox, then the SMS worker sends it. */
export function phoneCodeSender(db: Kysely<Database>, onQueued: () => void) {
  return async ({ user, otp }: { user: { id: string }; otp: string }, ctx?: Context) => {
    // Signed in: the code confirms a number being enrolled; otherwise it completes a sign-in.
    await queuePhoneCode(db, { userId: user.id, code: otp, purpose: ctx?.context.session ? "confirm" : "sign-in" });
    onQueued();
  };
}

export function phoneFactorEndpoints(options: { db: Kysely<Database> }) {
  const { db } = options;
  return {
    id: "bastion-phone-factor",
    endpoints: {
      enrolPhoneFactor: createAuthEndpoint(
        PHONE_ENROL_PATH,
        { method: "POST", body: z.object({ password: text, phoneNumber: text }), use: [sensitiveSessionMiddleware] },
        async (ctx) => {
          const userId = ctx.context.session.user.id;
          await checkPassword(ctx, userId, ctx.body.password);
          const phoneNumber = toE164(ctx.body.phoneNumber);
          if (!phoneNumber) {
            throw new APIError("BAD_REQUEST", { message: PHONE_NUMBER_MESSAGE, code: "INVALID_PHONE_NUMBER" });
          }
          // Refused before the number is stored: a number stored with no code sent to it
          // would wait for the code of the number before it.
          const problem = await smsLimitProblem(db, userId, phoneNumber);
          if (problem) throw new APIError("TOO_MANY_REQUESTS", { message: problem, code: "SMS_LIMIT" });
          await setPendingPhoneNumber(db, userId, phoneNumber).catch((error: unknown) => {
            if (error instanceof Conflict) {
              throw new APIError("CONFLICT", { message: error.message, code: "PHONE_FACTOR_EXISTS" });
            }
            throw error;
          });
          await forgetEnrolmentCodes(ctx, userId, ctx.context.session.session.id);
          return ctx.json({ phoneNumber });
        },
      ),
      removePhoneFactor: createAuthEndpoint(
        PHONE_REMOVE_PATH,
        { method: "POST", body: z.object({ password: text }), use: [sensitiveSessionMiddleware] },
        async (ctx) => {
          const user = ctx.context.session.user as { id: string; twoFactorEnabled?: boolean | null };
          await checkPassword(ctx, user.id, ctx.body.password);
          if (!(await removePhoneFactor(db, user.id))) {
            throw new APIError("NOT_FOUND", { message: NO_PHONE_FACTOR_MESSAGE, code: "NO_PHONE_FACTOR" });
          }
          // Two-factor stays on only while a confirmed authenticator app remains.
          const authenticator = await authenticatorOf(ctx, user.id);
          const stillOn = Boolean(authenticator && authenticator.verified !== false);
          if (Boolean(user.twoFactorEnabled) !== stillOn) {
            await ctx.context.internalAdapter.updateUser(user.id, { twoFactorEnabled: stillOn });
          }
          await auditPhoneFactor(db, user.id, "removed");
          return ctx.json({ status: true });
        },
      ),
      signInFactors: createAuthEndpoint(SIGN_IN_FACTORS_PATH, { method: "GET" }, async (ctx) => {
        const userId = await pendingSignInUserId(ctx);
        if (!userId) throw noPendingSignIn();
        const [authenticator, phone] = await Promise.all([authenticatorOf(ctx, userId), findPhoneFactor(db, userId)]);
        const confirmedApp = Boolean(authenticator && authenticator.verified !== false);
        const factors: SignInFactors = {
          authenticator: confirmedApp,
          backupCodes: confirmedApp,
          phone: phone?.verified ? maskPhoneNumber(phone.phoneNumber) : null,
        };
        return ctx.json(factors);
      }),
    },
    hooks: {
      before: [
        {
          // The phone is enrolled through PHONE_ENROL_PATH, where a code must confirm it:
          // the plugin's "otp" method would turn two-factor on without any number.
          matcher: (ctx) => ctx.path === "/two-factor/enable" && ctx.body?.method === "otp",
          handler: createAuthMiddleware(async () => {
            throw new APIError("BAD_REQUEST", {
              message: "Set up a phone number from the account page.",
              code: "OTP_NOT_CONFIGURED",
            });
          }),
        },
        {
          matcher: (ctx) => ctx.path === "/two-factor/send-otp",
          handler: createAuthMiddleware(async (ctx) => {
            const { userId, factor } = await codeRecipient(ctx, db);
            const problem = await smsLimitProblem(db, userId, factor.phoneNumber);
            if (problem) throw new APIError("TOO_MANY_REQUESTS", { message: problem, code: "SMS_LIMIT" });
          }),
        },
        {
          // Without a number, a code cannot turn two-factor on (the number was removed after the code was sent).
          matcher: (ctx) => ctx.path === "/two-factor/verify-otp",
          handler: createAuthMiddleware(async (ctx) => {
            await codeRecipient(ctx, db);
          }),
        },
      ],
      after: [
        {
          matcher: (ctx) => ctx.path === "/two-factor/verify-otp",
          handler: createAuthMiddleware(async (ctx) => {
            // Signed in: the code confirmed the number being enrolled (at sign-in there is no session yet).
            const userId = ctx.context.session?.user.id;
            if (!userId || !succeeded(ctx)) return;
            if (await confirmPhoneFactor(db, userId)) await auditPhoneFactor(db, userId, "enabled");
          }),
        },
        {
          // The authenticator app turned off: two-factor stays on while the phone remains.
          matcher: (ctx) => ctx.path === "/two-factor/disable",
          handler: createAuthMiddleware(async (ctx) => {
            const userId = ctx.context.session?.user.id;
            if (!userId || !succeeded(ctx)) return;
            if ((await findPhoneFactor(db, userId))?.verified) {
              await ctx.context.internalAdapter.updateUser(userId, { twoFactorEnabled: true });
            }
          }),
        },
      ],
    },
    rateLimit: [
      {
        pathMatcher: (path: string) => path === PHONE_ENROL_PATH || path === PHONE_REMOVE_PATH,
        window: 60,
        max: 5,
      },
    ],
  } satisfies BetterAuthPlugin;
}
