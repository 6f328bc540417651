import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { createTestDatabase, type TestDatabase, type TestDialect } from "./databases.ts";
import { freePort } from "./free-port.ts";
import { PROJECT_ROOT } from "./run-script.ts";

/**
 * The built server (`node server/main.ts`, production mode) as a child process, for
 * HTTP and browser tests. It needs `npm run build` first (e2e/global-setup.ts does it).
 */

const SERVER_ENTRY = path.join(PROJECT_ROOT, "server/main.ts");
/** Node's flags and glibc's malloc settings for the server, as `npm start` and docs/deploy/bastion.service set them (docs/decisions/018-server-memory.md). */
export const SERVER_NODE_FLAGS = ["--max-semi-space-size=16", "--max-old-space-size=256", "--expose-gc"];
export const SERVER_MALLOC_ENVIRONMENT = { MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "32768" };
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 20_000;

/** One pino JSON line of the server's stdout. */
export type LogLine = Record<string, unknown> & { level?: number; msg?: string };

export interface StartServerOptions {
  /**
   * sqlite (default): the DATA_DIR default file unless databaseUrl is given.
   * postgres: databaseUrl, or a fresh database created here and dropped by stop().
   */
  dialect?: TestDialect;
  databaseUrl?: string;
  /** Kept as is by stop(); without it a temporary folder is used and removed by stop(). */
  dataDir?: string;
  /** Extra environment; a value of undefined removes an inherited variable. */
  env?: Record<string, string | undefined>;
}

export interface RunningServer {
  /** http://127.0.0.1:PORT, also the server's PUBLIC_URL. */
  url: string;
  port: number;
  dataDir: string;
  /** DATABASE_URL given to the server; undefined for the default SQLite file in dataDir. */
  databaseUrl: string | undefined;
  /** The parsed JSON lines of stdout so far. */
  logs(): LogLine[];
  /** stderr so far. */
  stderr(): string;
  /** Resolves with the first log line (seen so far or to come) that matches. */
  waitForLog(matches: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** SIGTERM, then waits for the exit; resolves with the exit code (null if killed by a signal). */
  stop(): Promise<number | null>;
  /** Resolves when the process has exited, with its exit code. */
  exited: Promise<number | null>;
}

/** Variables of the test runner's own environment that must not leak into the server. */
const SERVER_VARIABLES = [
  "NODE_ENV",
  "PORT",
  "HOST",
  "PUBLIC_URL",
  "DATA_DIR",
  "DATABASE_URL",
  "AUTH_SECRET",
  "SMTP_URL",
  "MAIL_FROM",
  "MAIL_POLL_SECONDS",
  "MAIL_LEASE_SECONDS",
  "MAIL_RETRY_BASE_SECONDS",
  "NEWSLETTER_POLL_SECONDS",
  "S3_ENDPOINT",
  "S3_BUCKET",
  "S3_REGION",
  "S3_ACCESS_KEY_ID",
  "S3_SECRET_ACCESS_KEY",
  "S3_PUBLIC_URL",
  "BACKUP_SCHEDULE",
  "BACKUP_KEEP",
  "AUDIT_LOG_DAYS",
  "ADMIN_EMAIL",
  "ADMIN_PASSWORD",
  "ADMIN_NAME",
  "TRUST_PROXY",
  "METRICS_TOKEN",
  "METRICS_PORT",
  "LOG_LEVEL",
];

const running = new Set<ChildProcess>();
// A crashed test run must not leave servers behind.
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/** The environment of a server process: the runner's, cleaned of server variables, plus these. */
export function serverEnvironment(variables: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of SERVER_VARIABLES) delete env[name];
  env.NODE_ENV = "production";
  for (const [name, value] of Object.entries(variables)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/**
 * Spawns `node server/main.ts` as `npm start` runs it, with this environment (see
 * serverEnvironment), run by `wrapper` when one is given (valgrind, for a bench).
 */
export function spawnServerProcess(env: NodeJS.ProcessEnv, wrapper: string[] = []): ChildProcess {
  const command = [...wrapper, process.execPath, ...SERVER_NODE_FLAGS, SERVER_ENTRY];
  const child = spawn(command[0] as string, command.slice(1), {
    cwd: PROJECT_ROOT,
    env: { ...SERVER_MALLOC_ENVIRONMENT, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  child.once("exit", () => running.delete(child));
  return child;
}

export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const dialect = options.dialect ?? "sqlite";
  const ownDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), "bastion-server-"));
  let ownDatabase: TestDatabase | undefined;
  let databaseUrl = options.databaseUrl;
  if (databaseUrl === undefined && dialect === "postgres") {
    ownDatabase = await createTestDatabase("postgres");
    databaseUrl = ownDatabase.url;
  }

  const cleanUp = async () => {
    await ownDatabase?.drop();
    if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
  };

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawnServerProcess(
    serverEnvironment({
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: "info",
      ...options.env,
    }),
  );

  const lines: LogLine[] = [];
  const rawLines: string[] = [];
  let stderr = "";
  const waiters = new Set<{ matches: (line: LogLine) => boolean; resolve: (line: LogLine) => void }>();

  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (text) => {
    rawLines.push(text);
    let line: LogLine;
    try {
      line = JSON.parse(text) as LogLine;
    } catch {
      return;
    }
    if (typeof line !== "object" || line === null) return;
    lines.push(line);
    for (const waiter of waiters) {
      if (waiter.matches(line)) {
        waiters.delete(waiter);
        waiter.resolve(line);
      }
    }
  });

  let exitCode: number | null | undefined;
  // "close", not "exit": it comes after stdout has been read to its end.
  const exited = new Promise<number | null>((resolve) => {
    child.once("close", (code) => {
      exitCode = code;
      resolve(code);
    });
  });

  const describeOutput = () =>
    `stderr:\n${stderr.trim() || "(empty)"}\nstdout (last lines):\n${rawLines.slice(-20).join("\n") || "(empty)"}`;

  const waitForLog = (matches: (line: LogLine) => boolean, timeoutMs = 5_000): Promise<LogLine> => {
    const seen = lines.find(matches);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const waiter = {
        matches,
        resolve: (line: LogLine) => {
          clearTimeout(timer);
          resolve(line);
        },
      };
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`No matching log line within ${timeoutMs} ms.\n${describeOutput()}`));
      }, timeoutMs);
      waiters.add(waiter);
    });
  };

  const listening = (line: LogLine) => typeof line.msg === "string" && line.msg.startsWith("Listening on ");
  try {
    await Promise.race([
      waitForLog(listening, START_TIMEOUT_MS),
      exited.then((code) => {
        throw new Error(`The server exited with code ${code} before listening.`);
      }),
    ]);
  } catch (error) {
    if (exitCode === undefined) {
      child.kill("SIGKILL");
      await exited;
    }
    await cleanUp();
    throw new Error(`Bastion did not start: ${(error as Error).message.split("\n")[0]}\n${describeOutput()}`);
  }

  let stopping: Promise<number | null> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      if (exitCode === undefined) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
        await exited;
        clearTimeout(timer);
      }
      await cleanUp();
      return exitCode ?? null;
    })();
    return stopping;
  };

  return {
    url,
    port,
    dataDir,
    databaseUrl,
    logs: () => [...lines],
    stderr: () => stderr,
    waitForLog,
    stop,
    exited,
  };
}

/** Starts a server, runs work with it and stops it, also when work throws. */
export async function withServer<T>(
  options: StartServerOptions,
  work: (server: RunningServer) => Promise<T>,
): Promise<T> {
  const server = await startServer(options);
  try {
    return await work(server);
  } finally {
    await server.stop();
  }
}
