import type { DatabaseHandle } from "../../server/db/connection.ts";
import { startSiteWithAccounts, TEST_PASSWORD, type TestAccount } from "../helpers/accounts.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";
import { header, type RawResponse, request } from "../http/client.ts";

/**
 * Several real server processes (the built server, `node server/main.ts`, each with its
 * own DATA_DIR, port, mail worker, SMS worker and notification scheduler) serving one
 * site: one PostgreSQL database, one AUTH_SECRET, one PUBLIC_URL, and whatever shared
 * storage and SMTP the caller's environment names.
 */

/**
 * Several instances share nothing but the database (and S3): PostgreSQL only. Without
 * TEST_DATABASE_URL these tests are skipped, saying so; in CI it is required
 * (tests/helpers/databases.ts fails the run without it).
 */
export const HAS_POSTGRES = TEST_DIALECTS.includes("postgres");
if (!HAS_POSTGRES) {
  process.stderr.write("tests/scale: skipped, several instances need PostgreSQL: set TEST_DATABASE_URL.\n");
}

/** The same for every instance: sessions signed by one are accepted by the others. */
export const CLUSTER_AUTH_SECRET = "several-instances-test-secret-0123456789abcdef";

export interface ClusterOptions {
  instances: number;
  /** The site's one public origin (the load balancer's), also the Origin of every form post. */
  publicUrl: string;
  /** Environment of every instance. */
  env: Record<string, string>;
  /** Extra environment of one instance (0-based). */
  instanceEnv?: (index: number) => Record<string, string>;
  accounts: TestAccount[];
  seed?: (database: DatabaseHandle) => Promise<void>;
}

export interface Cluster {
  publicUrl: string;
  instances: RunningServer[];
  /** Opens a connection to the shared database (close it when done). */
  openDatabase(): Promise<DatabaseHandle>;
  /** Starts one more instance (e.g. in place of a stopped one: PORT in `env`), stopped by stop(). */
  startInstance(index: number, env?: Record<string, string>): Promise<RunningServer>;
  /** Stops every instance still running, then drops the database. */
  stop(): Promise<void>;
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const envOf = (index: number) => ({
    PUBLIC_URL: options.publicUrl,
    AUTH_SECRET: CLUSTER_AUTH_SECRET,
    ...options.env,
    ...options.instanceEnv?.(index),
  });
  // The first instance creates the database, its accounts and seed; the others join it.
  const site = await startSiteWithAccounts({
    dialect: "postgres",
    accounts: options.accounts,
    seed: options.seed,
    server: { env: envOf(0) },
  });
  const instances = [site.server];
  try {
    const others = await Promise.all(
      Array.from({ length: options.instances - 1 }, (_, index) =>
        startServer({ databaseUrl: site.server.databaseUrl, env: envOf(index + 1) }),
      ),
    );
    instances.push(...others);
  } catch (error) {
    await Promise.all(instances.map((instance) => instance.stop()));
    await site.stop();
    throw error;
  }
  return {
    publicUrl: options.publicUrl,
    instances,
    openDatabase: site.openDatabase,
    async startInstance(index, env = {}) {
      const instance = await startServer({ databaseUrl: site.server.databaseUrl, env: { ...envOf(index), ...env } });
      instances.push(instance);
      return instance;
    },
    async stop() {
      await Promise.all(instances.slice(1).map((instance) => instance.stop()));
      await site.stop();
    },
  };
}

/**
 * Signs in through one instance's Better Auth endpoint, as a browser on the public
 * origin would (its Origin header), and returns the session cookies as a Cookie header.
 */
export async function signInThrough(
  instanceUrl: string,
  publicUrl: string,
  email: string,
  options: { password?: string; clientIp?: string } = {},
): Promise<{ response: RawResponse; cookie: string }> {
  const body = JSON.stringify({ email, password: options.password ?? TEST_PASSWORD });
  const response = await request(`${instanceUrl}/api/auth/sign-in/email`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "Content-Length": String(Buffer.byteLength(body)),
      Origin: publicUrl,
      ...(options.clientIp ? { "X-Forwarded-For": options.clientIp } : {}),
    },
    body,
  });
  const setCookie = response.headers["set-cookie"] ?? [];
  const cookie = setCookie.map((line) => line.split(";")[0] as string).join("; ");
  return { response, cookie };
}

/**
 * A form post to an admin screen's action, as the browser sends it without JavaScript
 * and a load balancer passes it on: the public host in Host (React Router checks a form
 * post's Origin against it) and in Origin.
 */
export function postForm(
  instanceUrl: string,
  publicUrl: string,
  path: string,
  cookie: string,
  fields: Record<string, string>,
): Promise<RawResponse> {
  const body = new URLSearchParams(fields).toString();
  return request(`${instanceUrl}${path}`, {
    method: "POST",
    headers: {
      Host: new URL(publicUrl).host,
      Origin: publicUrl,
      Cookie: cookie,
      "Content-Type": "application/x-www-form-urlencoded",
      "Content-Length": String(Buffer.byteLength(body)),
    },
    body,
  });
}

/** Resolves with the milliseconds until `check` holds, polling every `everyMs`; rejects after `timeoutMs`. */
export async function timeUntil(
  check: () => Promise<boolean>,
  options: { since: number; everyMs: number; timeoutMs: number; what: string },
): Promise<number> {
  for (;;) {
    if (await check()) return performance.now() - options.since;
    if (performance.now() - options.since > options.timeoutMs) {
      throw new Error(`${options.what}: not seen within ${options.timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.everyMs));
  }
}

export { header };
