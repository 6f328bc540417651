import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pino from "pino";
import type { Role } from "../../server/auth/roles.ts";
import { setUserRole } from "../../server/auth/roles.ts";
import { createUser } from "../../server/auth/users.ts";
import { loadConfig } from "../../server/config.ts";
import { type DatabaseHandle, openDatabase } from "../../server/db/connection.ts";
import { prepareDatabase } from "../../server/db/setup.ts";
import { createAuthForDatabase } from "../../server/services.ts";
import { createTestDatabase, type TestDatabase, type TestDialect } from "./databases.ts";
import { type RunningServer, type StartServerOptions, startServer } from "./server.ts";

/**
 * Real accounts for HTTP and browser tests: users created through the product's own
 * account service (Better Auth's hasher and adapter) in the database a server is then
 * started on, and real sessions obtained by signing in over HTTP.
 */

export const TEST_PASSWORD = "correct horse battery staple 42";

export interface TestAccount {
  email: string;
  name: string;
  /** null: a user without any role (signed in, but no admin access). */
  role: Role | null;
  password?: string;
}

export interface SiteWithAccounts {
  server: RunningServer;
  dialect: TestDialect;
  /** The accounts by email, with their user ids. */
  users: Map<string, TestAccount & { id: string }>;
  /** Opens a second connection to the server's database (close it when done). */
  openDatabase(): Promise<DatabaseHandle>;
  stop(): Promise<void>;
}

const quietLogger = pino({ level: "silent" });

/**
 * Creates a database (SQLite file or PostgreSQL), migrates it, creates the accounts,
 * runs `seed` on it, then starts the built server on it.
 */
export async function startSiteWithAccounts(options: {
  dialect: TestDialect;
  accounts: TestAccount[];
  seed?: (database: DatabaseHandle) => Promise<void>;
  server?: Omit<StartServerOptions, "dialect" | "databaseUrl" | "dataDir">;
}): Promise<SiteWithAccounts> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bastion-accounts-"));
  let testDb: TestDatabase | undefined;
  let server: RunningServer | undefined;
  try {
    testDb = await createTestDatabase(options.dialect);
    const databaseUrl = options.dialect === "postgres" ? testDb.url : `file:${path.join(dataDir, "bastion.sqlite")}`;
    const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, LOG_LEVEL: "error" });
    const users = new Map<string, TestAccount & { id: string }>();

    const database = await prepareDatabase(config.database, quietLogger);
    const { auth, close } = createAuthForDatabase(config, database, quietLogger);
    try {
      const context = (await auth.$context) as { checkSchema?: () => Promise<unknown> | undefined };
      await context.checkSchema?.();
      for (const account of options.accounts) {
        const created = await createUser(
          { auth, db: database.db },
          {
            email: account.email,
            name: account.name,
            password: account.password ?? TEST_PASSWORD,
            role: account.role ?? "editor",
            via: "test",
            emailVerified: true,
          },
        );
        if (account.role === null) await setUserRole(database.db, created.id, null);
        users.set(account.email, { ...account, id: created.id });
      }
      await options.seed?.(database);
    } finally {
      await close();
      await database.close();
    }

    const running = await startServer({ ...options.server, dialect: options.dialect, databaseUrl, dataDir });
    server = running;
    const ownDatabase = testDb;
    return {
      server: running,
      dialect: options.dialect,
      users,
      openDatabase: async () => openDatabase(config.database),
      stop: async () => {
        await running.stop();
        await ownDatabase.drop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await server?.stop();
    await testDb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

export interface SignInOptions {
  password?: string;
  /** Sent as X-Forwarded-For: only a server started with TRUST_PROXY believes it. */
  clientIp?: string;
}

/**
 * Signs in through Better Auth's HTTP endpoint (as the browser client would) and
 * returns the session cookies as a Cookie header value. Sign-in is rate limited per
 * client IP (5 a minute): a test that needs more sessions starts its server with
 * TRUST_PROXY and gives each sign-in its own clientIp.
 */
export async function signIn(
  baseUrl: string,
  email: string,
  /** The password (TEST_PASSWORD by default), or options. */
  passwordOrOptions: string | SignInOptions = {},
): Promise<string> {
  const options = typeof passwordOrOptions === "string" ? { password: passwordOrOptions } : passwordOrOptions;
  const { password = TEST_PASSWORD, clientIp } = options;
  const response = await fetch(`${baseUrl}/api/auth/sign-in/email`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Origin: baseUrl,
      ...(clientIp ? { "X-Forwarded-For": clientIp } : {}),
    },
    body: JSON.stringify({ email, password }),
    redirect: "manual",
  });
  if (response.status !== 200) {
    throw new Error(`Signing in ${email} failed: ${response.status} ${await response.text()}`);
  }
  const cookies = response.headers.getSetCookie().map((cookie) => cookie.split(";")[0] as string);
  if (!cookies.some((cookie) => cookie.includes("session_token="))) {
    throw new Error(`Signing in ${email} set no session cookie: ${cookies.join(", ")}`);
  }
  return cookies.join("; ");
}

/** The cookies of a Cookie header, as Playwright's context.addCookies() takes them. */
export function browserCookies(cookieHeader: string, baseUrl: string) {
  return cookieHeader.split("; ").map((pair) => {
    const index = pair.indexOf("=");
    return {
      name: pair.slice(0, index),
      value: pair.slice(index + 1),
      url: baseUrl,
      httpOnly: true,
      sameSite: "Lax" as const,
    };
  });
}

/**
 * Signs every account in over HTTP, each from its own proxy-reported address in
 * `subnet` (e.g. "10.0.5"; the server needs TRUST_PROXY=true), so that these sign-ins
 * leave the browser's own address all of its attempts (sign-in is rate limited per IP).
 * Returns each account's Cookie header.
 */
export async function signInEach<Key extends string>(
  base: string,
  accounts: Record<Key, { email: string }>,
  subnet: string,
): Promise<Record<Key, string>> {
  const sessions = {} as Record<Key, string>;
  for (const [index, key] of (Object.keys(accounts) as Key[]).entries()) {
    sessions[key] = await signIn(base, accounts[key].email, { clientIp: `${subnet}.${index + 1}` });
  }
  return sessions;
}

/** Gives a browser context the session of a Cookie header from signIn(). */
export async function addSessionCookies(
  context: { addCookies(cookies: ReturnType<typeof browserCookies>): Promise<void> },
  cookieHeader: string,
  base: string,
): Promise<void> {
  await context.addCookies(browserCookies(cookieHeader, base));
}
