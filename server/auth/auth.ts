import { passkey } from "@better-auth/passkey";
import { betterAuth } from "better-auth";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { jwt, twoFactor } from "better-auth/plugins";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { countFailedSignIns, recordAudit } from "../audit/audit-log.ts";
import type { Config } from "../config.ts";
import type { DatabaseHandle } from "../db/connection.ts";
import type { Logger } from "../logger.ts";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, passwordProblem } from "./password-policy.ts";

/**
 * Better Auth on the application's own database: email + password, database
 * sessions in httpOnly cookies, password reset by email, TOTP two-factor, passkeys,
 * JWT + JWKS for API clients, and rate limits stored in the database so that they
 * hold across instances. See docs/decisions/005 and 006.
 */

/** The header through which the Express layer hands Better Auth the client's IP. */
export const CLIENT_IP_HEADER = "x-bastion-client-ip";

/** Per-account limit on failed sign-ins, on top of Better Auth's per-IP limit. */
const ACCOUNT_FAILURE_LIMIT = 10;
const ACCOUNT_FAILURE_WINDOW_MS = 15 * 60 * 1000;

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
}

export type BastionAuth = ReturnType<typeof createAuth>["auth"];

const PASSWORD_PATHS = new Set(["/reset-password", "/change-password", "/set-password"]);

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
  authPool?.on("error", () => {});
  const authDb = authPool ? new Kysely<any>({ dialect: new PostgresDialect({ pool: authPool }) }) : db;

  const auth = betterAuth({
    appName: "Bastion",
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
        "/sign-in/passkey": { window: 60, max: 10 },
        "/two-factor/*": { window: 60, max: 5 },
        "/request-password-reset": { window: 60 * 10, max: 3 },
        "/reset-password": { window: 60 * 10, max: 5 },
      },
    },
    advanced: {
      useSecureCookies: publicUrl.protocol === "https:",
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      cookiePrefix: "bastion",
    },
    plugins: [
      twoFactor({ issuer: "Bastion" }),
      passkey({ rpID: publicUrl.hostname, rpName: "Bastion", origin: config.publicOrigin }),
      jwt({ jwt: { issuer: config.publicOrigin, audience: config.publicOrigin, expirationTime: "15m" } }),
    ],
    databaseHooks: {
      session: {
        create: {
          after: async (session) => {
            await recordAudit(db, { userId: session.userId, action: "auth.sign-in", entity: "session" });
          },
        },
      },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path === "/sign-in/email") {
          const email = String(ctx.body?.email ?? "").toLowerCase();
          const since = new Date(Date.now() - ACCOUNT_FAILURE_WINDOW_MS).toISOString();
          if (email && (await countFailedSignIns(db, email, since)) >= ACCOUNT_FAILURE_LIMIT) {
            throw new APIError("TOO_MANY_REQUESTS", {
              message: "Too many failed sign-in attempts for this account. Try again in 15 minutes.",
            });
          }
        }
        if (PASSWORD_PATHS.has(ctx.path)) {
          const problem = passwordProblem(String(ctx.body?.newPassword ?? ""));
          if (problem) throw new APIError("BAD_REQUEST", { message: problem });
        }
      }),
      after: createAuthMiddleware(async (ctx) => {
        const returned = ctx.context.returned;
        if (ctx.path === "/sign-in/email" && returned instanceof APIError && returned.statusCode === 401) {
          await recordAudit(db, {
            userId: null,
            action: "auth.sign-in-failed",
            entity: "account",
            entityId: String(ctx.body?.email ?? "").toLowerCase(),
          });
        }
        if (ctx.path === "/sign-out") {
          const userId = ctx.context.session?.user.id ?? null;
          await recordAudit(db, { userId, action: "auth.sign-out", entity: "session" });
        }
        if (PASSWORD_PATHS.has(ctx.path) && !(returned instanceof APIError)) {
          const userId = ctx.context.session?.user.id ?? null;
          await recordAudit(db, { userId, action: "account.password-changed", entity: "user", entityId: userId });
        }
      }),
    },
  });

  return { auth, close: async () => (authPool ? authPool.end() : undefined) };
}
