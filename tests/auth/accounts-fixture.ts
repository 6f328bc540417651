import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import pino from "pino";
import { expect } from "vitest";
import { type AccountVisitor, confirmTotpEnrolment, startTotpEnrolment } from "../../server/auth/account-changes.ts";
import { CLIENT_IP_HEADER } from "../../server/auth/auth.ts";
import { callAuth } from "../../server/auth/handler-calls.ts";
import { createUser } from "../../server/auth/users.ts";
import { type Config, loadConfig } from "../../server/config.ts";
import type { DatabaseHandle } from "../../server/db/connection.ts";
import { prepareDatabase } from "../../server/db/setup.ts";
import { AppError } from "../../server/errors.ts";
import type { Logger } from "../../server/logger.ts";
import { createAuthForDatabase } from "../../server/services.ts";
import { createTestDatabase, type TestDatabase, type TestDialect } from "../helpers/databases.ts";

/**
 * A migrated test database with Better Auth on it, in-process, as the server builds
 * them (createAuthForDatabase), for the account services' integration tests.
 */

export const PUBLIC_URL = "http://bastion.test";
export const STRONG_PASSWORD = "violet tractor spoon galaxy";
export const OTHER_STRONG_PASSWORD = "quiet harbour lantern 42";

export interface Accounts {
  config: Config;
  database: DatabaseHandle;
  services: {
    auth: ReturnType<typeof createAuthForDatabase>["auth"];
    db: DatabaseHandle["db"];
    config: Config;
    logger: Logger;
  };
  /** The JSON log lines written so far. */
  logLines: Array<Record<string, unknown>>;
  /** The environment that points the CLI (and a server) at this database. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function openAccounts(dialect: TestDialect, extraEnv: Record<string, string> = {}): Promise<Accounts> {
  const testDb: TestDatabase = await createTestDatabase(dialect);
  const dataDir = mkdtempSync(path.join(tmpdir(), "bastion-accounts-"));
  const env = {
    DATABASE_URL: testDb.url,
    DATA_DIR: dataDir,
    PUBLIC_URL,
    AUTH_SECRET: "test-secret-test-secret-test-secret-0123",
    NODE_ENV: "test",
    ...extraEnv,
  };
  const config = loadConfig(env);
  const logLines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n")) if (line.trim()) logLines.push(JSON.parse(line));
      done();
    },
  });
  const logger = pino({ level: "info", base: undefined }, sink);
  const database = await prepareDatabase(config.database, logger);
  const { auth, close } = createAuthForDatabase(config, database, logger);
  const context = (await auth.$context) as { checkSchema?: () => Promise<unknown> | undefined };
  await context.checkSchema?.();
  return {
    config,
    database,
    services: { auth, db: database.db, config, logger },
    logLines,
    env,
    async close() {
      await close();
      await database.close();
      await testDb.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A request as the Express layer hands it on: a client IP of our choosing, cookies if any. */
export function incomingRequest(options: { ip?: string; cookie?: string } = {}): Request {
  const headers = new Headers({ [CLIENT_IP_HEADER]: options.ip ?? "203.0.113.7" });
  if (options.cookie) headers.set("cookie", options.cookie);
  return new Request(`${PUBLIC_URL}/auth`, { method: "POST", headers });
}

let nextIp = 1;

/** A client IP of its own for each call, so that the per-IP sign-in limit stays out of the way. */
export function freshIp(): string {
  nextIp += 1;
  return `198.51.${Math.floor(nextIp / 250) % 250}.${(nextIp % 250) + 1}`;
}

/** Signs in through Better Auth's handler; the status and the session cookie, if any. */
export async function signIn(accounts: Accounts, email: string, password: string, ip = freshIp()) {
  const result = await callAuth(accounts.services, incomingRequest({ ip }), "/sign-in/email", { email, password });
  const session = result.cookies.find((cookie) => /session_token=[^;]/.test(cookie));
  return { status: result.status, cookie: session?.split(";")[0] };
}

/** The user the session cookie belongs to (null when it no longer opens a session). */
export async function sessionUser(accounts: Accounts, cookie: string | undefined): Promise<string | null> {
  if (!cookie) return null;
  const session = await accounts.services.auth.api.getSession({ headers: new Headers({ cookie }) });
  return session?.user.email ?? null;
}

export async function auditActions(accounts: Accounts): Promise<string[]> {
  const rows = await accounts.services.db.selectFrom("audit_log").select("action").orderBy("at").execute();
  return rows.map((row) => row.action);
}

/**
 * The AppError the promise rejects with (fails the test if it resolves or throws
 * something else): its class name (NotFound, Invalid, Conflict, Forbidden…), message and field messages.
 */
export async function refusal(promise: Promise<unknown>): Promise<AppError & { fields?: Record<string, string> }> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

/** A TOTP code (RFC 6238 over RFC 4226) for a base32 secret, as an authenticator app computes it. */
export function totp(secret: string, at = Date.now()): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const character of secret.replace(/=+$/, "").toUpperCase()) {
    value = ((value << 5) | alphabet.indexOf(character)) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const hmac = createHmac("sha1", Buffer.from(bytes)).update(counter).digest();
  const offset = (hmac[hmac.length - 1] as number) & 0x0f;
  return String((hmac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

/** The account page's visitor for a session, calling from an address of its own (the per-IP limits stay out of the way). */
export async function visitorFor(accounts: Accounts, cookie: string): Promise<AccountVisitor> {
  const session = await accounts.services.auth.api.getSession({ headers: new Headers({ cookie }) });
  if (!session) throw new Error("The cookie opens no session.");
  return {
    services: accounts.services,
    viewer: { user: { id: session.user.id }, session: { id: session.session.id } },
    request: incomingRequest({ cookie, ip: freshIp() }),
    cookies: [],
  };
}

/** A new editor with an authenticator app enrolled: the user, its secret and backup codes. */
export async function withAuthenticator(accounts: Accounts, email: string) {
  const user = await createUser(accounts.services, { email, password: STRONG_PASSWORD, role: "editor", via: "test" });
  const { cookie } = await signIn(accounts, email, STRONG_PASSWORD);
  const { secret } = await startTotpEnrolment(await visitorFor(accounts, cookie as string), STRONG_PASSWORD);
  const backupCodes = await confirmTotpEnrolment(await visitorFor(accounts, cookie as string), totp(secret));
  return { user, secret, backupCodes };
}

/** A password sign-in through Better Auth's handler (with a browser's cookies, if any), answered 200. */
export async function passwordSignIn(accounts: Accounts, email: string, cookie?: string) {
  const result = await callAuth(accounts.services, incomingRequest({ ip: freshIp(), cookie }), "/sign-in/email", {
    email,
    password: STRONG_PASSWORD,
  });
  expect(result.status).toBe(200);
  return result;
}

/** A password sign-in that stops at the second step: the challenge cookie. */
export async function passwordStep(accounts: Accounts, email: string): Promise<string> {
  const result = await passwordSignIn(accounts, email);
  expect(result.body.twoFactorRedirect).toBe(true);
  return result.cookies.map((cookie) => cookie.split(";")[0]).join("; ");
}

/** The newest text to a number, from the SMS outbox (no provider in tests), with the code it carries. */
export async function lastText(accounts: Accounts, to: string) {
  const row = await accounts.services.db
    .selectFrom("sms_outbox")
    .selectAll()
    .where("to_number", "=", to)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
  const code = /\b(\d{6})\b/.exec(row.body ?? "")?.[1];
  if (!code) throw new Error(`No code in "${row.body}"`);
  return { ...row, code };
}
