import { passkey } from "@better-auth/passkey";
import { betterAuth } from "better-auth";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { jwt, twoFactor } from "better-auth/plugins";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { answerNoSoonerThan } from "../answer-floor.ts";
import { recordAudit } from "../audit/audit-log.ts";
import type { Config } from "../config.ts";
import type { DatabaseHandle } from "../db/connection.ts";
import type { Database } from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import { SITE_NAME } from "../site.ts";
import { holdsNulCharacter, NUL_CHARACTER_MESSAGE } from "../validation.ts";
import { auditAccountChange, auditSessionDeleted, noteStateBeforeAccountChange } from "./account-audit.ts";
import { accountLinkEndpoints } from "./account-endpoints.ts";
import { apiTokenJwtOptions } from "./api-tokens.ts";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, passwordProblem } from "./password-policy.ts";
import { forgetPasswordResetLinks } from "./password-reset-links.ts";
import { PHONE_CODE_MINUTES } from "./phone-code-period.ts";
import { phoneCodeSender, phoneFactorEndpoints } from "./phone-factor-endpoints.ts";
import { auditSecondFactorFailure, noteSecondFactorChallenge } from "./second-factor-audit.ts";
import { AUTH_COOKIE_PREFIX } from "./session-cookie.ts";
import { recordFailedSignIn, signInRefusal } from "./sign-in-guard.ts";
import { userNameProblem } from "./users.ts";

/**
 * Better Auth on the application's own database: email + password, database
 * sessions in httpOnly cookies, password reset by email, two-factor by authenticator
 * app (TOTP) or by a code texted to a phone (phone-factor-endpoints.ts), passkeys,
 * JWT + JWKS for API clients, and rate limits stored in the database so that they
 * hold across instances. See docs/decisions/005 and 006.
 */

/** The header through which the Express layer hands Better Auth the client's IP. */
export const CLIENT_IP_HEADER = "x-bastion-client-ip";

/**
 * A reset request does more for a real account (a link stored, an email queued) than for
 * an unknown address: its answer leaves at this fixed time after the request began, so
 * the two cannot be told apart by timing.
 */
export const RESET_REQUEST_ANSWER_FLOOR_MS = 250;
const resetRequestsStarted = new WeakMap<Request, number>();

/** The client's address as the Express layer handed it over ("unknown" for calls without one). */
function clientIpOf(ctx: { headers?: Headers }): string {
  return ctx.headers?.get(CLIENT_IP_HEADER)?.trim() || "unknown";
}

export interface PasswordResetEmail {
  user: { id: string; email: string; name: string };
  url: string;
  token: string;
}

export interface AuthOptions {
  config: Config;
  database: DatabaseHandle;
  logger: Logger;
  secret: string;
  /** Writes the reset email to the outbox; called inside Better Auth's request. */
  sendPasswordResetEmail(email: PasswordResetEmail): Promise<void>;
  /** Called once a text message is in the SMS outbox (wakes the SMS worker). */
  onSmsQueued(): void;
}

export type BastionAuth = ReturnType<typeof createAuth>["auth"];

const PASSWORD_PATHS = new Set(["/reset-password", "/change-password", "/set-password"]);

/**
 * The answer to a two-factor call that asks to trust the device: Better Auth would set a
 * cookie that lets the next password sign-ins on that browser skip the second factor,
 * and the product offers no such thing.
 */
export const TRUST_DEVICE_REFUSED_MESSAGE =
  "Trusting a device is not offered here: every sign-in asks for the second factor.";

/** Better Auth's trust-device cookie (bastion.trust_device, or __Secure-bastion.trust_device over HTTPS). */
const TRUST_DEVICE_COOKIE = new RegExp(`(?:^|;\\s*)(?:__Secure-)?${AUTH_COOKIE_PREFIX}\\.trust_device=`);

/** Endpoints whose new session is a sign-in (others rotate it: password change, 2FA toggles). */
const SIGN_IN_PATHS = new Set([
  "/sign-in/email",
  "/passkey/verify-authentication",
  "/two-factor/verify-totp",
  "/two-factor/verify-backup-code",
  "/two-factor/verify-otp",
]);

/**
 * True when a new session completes a sign-in. A password sign-in of a user with
 * two-factor on creates a session that the two-factor plugin drops at once; the
 * sign-in is recorded when the code is verified. A code checked while signed in
 * (confirming an enrolment, which rotates the session) is no sign-in.
 */
async function isCompletedSignIn(
  db: Kysely<Database>,
  userId: string,
  ctx: { path?: string; context?: { session?: unknown } } | null | undefined,
): Promise<boolean> {
  const path = ctx?.path;
  if (!path || !SIGN_IN_PATHS.has(path)) return false;
  if (path.startsWith("/two-factor/")) return !ctx?.context?.session;
  if (path !== "/sign-in/email") return true;
  const { rows } = await sql<{
    twoFactorEnabled: unknown;
  }>`select ${sql.ref("twoFactorEnabled")} from ${sql.table("user")} where id = ${userId}`.execute(db);
  return !rows[0]?.twoFactorEnabled;
}

export function createAuth(options: AuthOptions) {
  const { config, database, logger } = options;
  const publicUrl = new URL(config.publicOrigin);
  const { db } = database;

  // On PostgreSQL Better Auth gets its own small pool: it expects pg's default Date
  // parsing for timestamps (ours returns ISO strings) and int8 as numbers.
  const authPool =
    config.database.kind === "postgres"
      ? new pg.Pool({
          connectionString: config.database.url,
          max: 5,
          types: {
            getTypeParser: ((oid: number, format?: "text" | "binary") =>
              oid === 20 ? Number : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig["getTypeParser"],
          },
        })
      : undefined;
  // An idle connection that the server drops emits "error" on the pool; unhandled, it
  // would end the process. The next query reconnects.
  authPool?.on("error", (error) =>
    logger.error({ err: error }, "Auth's PostgreSQL connection lost while idle; the next query reconnects"),
  );
  const authDb = authPool ? new Kysely<unknown>({ dialect: new PostgresDialect({ pool: authPool }) }) : db;

  const auth = betterAuth({
    appName: SITE_NAME,
    baseURL: config.publicOrigin,
    basePath: "/api/auth",
    secret: options.secret,
    trustedOrigins: [config.publicOrigin],
    database: { db: authDb, type: database.dialect, transaction: true },
    logger: {
      log: (level, message, ...args) => logger[level]({ args }, message),
    },
    emailAndPassword: {
      enabled: true,
      // Accounts are created by the CLI, invitations and the owner-setup link only.
      disableSignUp: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, url, token }) => {
        await options.sendPasswordResetEmail({ user, url, token });
      },
      onPasswordReset: async ({ user }) => {
        // The link just used is consumed; older unused ones of the account stop working too.
        await forgetPasswordResetLinks(db, user.id);
        await recordAudit(db, { userId: user.id, action: "account.password-reset", entity: "user", entityId: user.id });
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 7,
      // A session used at least once a day keeps going; an idle one expires.
      updateAge: 60 * 60 * 24,
    },
    rateLimit: {
      enabled: true,
      storage: "database",
      window: 60,
      max: 100,
      customRules: {
        "/sign-in/email": { window: 60, max: 5 },
        "/passkey/verify-authentication": { window: 60, max: 10 },
        "/two-factor/*": { window: 60, max: 5 },
        "/request-password-reset": { window: 60 * 10, max: 3 },
        "/reset-password": { window: 60 * 10, max: 5 },
      },
    },
    advanced: {
      useSecureCookies: publicUrl.protocol === "https:",
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      cookiePrefix: AUTH_COOKIE_PREFIX,
    },
    plugins: [
      twoFactor({
        issuer: SITE_NAME,
        otpOptions: {
          sendOTP: phoneCodeSender(db, options.onSmsQueued),
          storeOTP: "hashed",
          period: PHONE_CODE_MINUTES,
        },
      }),
      passkey({ rpID: publicUrl.hostname, rpName: SITE_NAME, origin: config.publicOrigin }),
      jwt(apiTokenJwtOptions(config)),
      accountLinkEndpoints({ db }),
      phoneFactorEndpoints({ db }),
    ],
    databaseHooks: {
      session: {
        create: {
          after: async (session, ctx) => {
            if (await isCompletedSignIn(db, session.userId, ctx)) {
              await recordAudit(db, {
                userId: session.userId,
                action: "auth.sign-in",
                entity: "session",
                details: { method: ctx?.path },
              });
            }
          },
        },
        delete: {
          after: async (session, ctx) => {
            await auditSessionDeleted(db, session, ctx);
          },
        },
      },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        // Its query went through the app's URL check (server/http/nul-in-url.ts); its body comes here.
        if (holdsNulCharacter(ctx.body)) throw new APIError("BAD_REQUEST", { message: NUL_CHARACTER_MESSAGE });
        if (ctx.path.startsWith("/two-factor/") && ctx.body?.trustDevice) {
          throw new APIError("BAD_REQUEST", { message: TRUST_DEVICE_REFUSED_MESSAGE, code: "TRUST_DEVICE_REFUSED" });
        }
        // A trust cookie issued before such requests were refused would still skip the
        // second factor, renewed at each use. No trust record is legitimate: without
        // them, Better Auth expires the cookie and asks for the second factor.
        if (ctx.path === "/sign-in/email" && TRUST_DEVICE_COOKIE.test(ctx.headers?.get("cookie") ?? "")) {
          await sql`delete from ${sql.table("verification")} where ${sql.ref("identifier")} like ${"trust-device-%"}`.execute(
            db,
          );
        }
        if (ctx.path === "/request-password-reset" && ctx.request)
          resetRequestsStarted.set(ctx.request, performance.now());
        await noteStateBeforeAccountChange(ctx);
        await noteSecondFactorChallenge(ctx);
        if (ctx.path === "/sign-in/email") {
          const email = String(ctx.body?.email ?? "").toLowerCase();
          const refusal = email ? await signInRefusal(db, email, clientIpOf(ctx)) : null;
          if (refusal) throw new APIError("TOO_MANY_REQUESTS", { message: refusal });
        }
        if (PASSWORD_PATHS.has(ctx.path)) {
          const problem = passwordProblem(String(ctx.body?.newPassword ?? ""));
          if (problem) throw new APIError("BAD_REQUEST", { message: problem });
        }
        if (ctx.path === "/update-user" && ctx.body && typeof ctx.body === "object" && "name" in ctx.body) {
          const problem = userNameProblem(ctx.body.name);
          if (problem) throw new APIError("BAD_REQUEST", { message: problem });
        }
      }),
      after: createAuthMiddleware(async (ctx) => {
        const returned = ctx.context.returned;
        const resetStartedAt = ctx.request && resetRequestsStarted.get(ctx.request);
        if (resetStartedAt !== undefined) await answerNoSoonerThan(resetStartedAt, RESET_REQUEST_ANSWER_FLOOR_MS);
        if (ctx.path === "/sign-in/email" && returned instanceof APIError && returned.statusCode === 401) {
          await recordFailedSignIn(db, String(ctx.body?.email ?? "").toLowerCase(), clientIpOf(ctx));
        }
        // A wrong code after a right password: recorded apart, outside the password lock.
        await auditSecondFactorFailure(db, ctx, clientIpOf(ctx));
        // Sign-outs are recorded before the session is deleted (accountLinkEndpoints), with their user.
        // A reset by emailed link is recorded by onPasswordReset above, with its user.
        if (PASSWORD_PATHS.has(ctx.path) && ctx.path !== "/reset-password" && !(returned instanceof APIError)) {
          const userId = ctx.context.session?.user.id ?? null;
          // A link emailed before the change must not undo it.
          if (userId) await forgetPasswordResetLinks(db, userId);
          await recordAudit(db, { userId, action: "account.password-changed", entity: "user", entityId: userId });
        }
        await auditAccountChange(db, ctx);
      }),
    },
  });

  return { auth, close: async () => (authPool ? authPool.end() : undefined) };
}
