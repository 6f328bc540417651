import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { DatabaseConfig } from "../../server/config.ts";
import { openDatabase } from "../../server/db/connection.ts";
import { LISTENING_SOCKETS } from "../../server/http/listeners.ts";
import { createTestDatabase, TEST_DIALECTS } from "../helpers/databases.ts";
import { type RunningServer, serverEnvironment, spawnServerProcess, startServer } from "../helpers/server.ts";
import { request } from "./client.ts";

/** Start-up, graceful shutdown and restarts of the server process. */

function footerLinkedinHref(html: string): string | undefined {
  const tag = /<a\b[^>]*data-testid="footer-linkedin"[^>]*>/.exec(html)?.[0];
  return tag ? /\bhref="([^"]*)"/.exec(tag)?.[1]?.replaceAll("&amp;", "&") : undefined;
}

function expectStoppedLogLines(server: RunningServer): void {
  const messages = server.logs().map((line) => line.msg);
  const shuttingDown = messages.findIndex((msg) => typeof msg === "string" && msg.startsWith("Shutting down"));
  expect(shuttingDown, "a 'Shutting down' log line").toBeGreaterThanOrEqual(0);
  expect(messages.indexOf("Stopped"), "a 'Stopped' log line after it").toBeGreaterThan(shuttingDown);
  expect(server.logs().filter((line) => (line.level ?? 0) >= 50)).toEqual([]);
}

/**
 * Sends SIGTERM as soon as the head of a page response arrives, over a keep-alive
 * connection, then reads the rest of the page: the response must complete, and the
 * connection, idle afterwards, must not hold the shutdown open.
 */
async function stopDuringPageRequest(server: RunningServer, agent: Agent) {
  const started = Date.now();
  const { status, body, exitCode } = await new Promise<{
    status: number;
    body: string;
    exitCode: Promise<number | null>;
  }>((resolve, reject) => {
    const outgoing = httpRequest(`${server.url}/`, { agent }, (response) => {
      const exitCode = server.stop();
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        body += chunk;
      });
      response.once("error", reject);
      response.once("end", () => resolve({ status: response.statusCode ?? 0, body, exitCode }));
    });
    outgoing.once("error", reject);
    outgoing.end();
  });
  expect(status).toBe(200);
  expect(body).toMatch(/<\/html>\s*$/);
  expect(await exitCode, `exit code; stderr: ${server.stderr()}`).toBe(0);
  expect(Date.now() - started).toBeLessThan(3_000);
  expectStoppedLogLines(server);
}

describe.each(TEST_DIALECTS)("restarts on %s", (dialect) => {
  it("stops gracefully on SIGTERM and keeps data and the generated auth secret across a restart", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "bastion-restart-"));
    const postgres = dialect === "postgres" ? await createTestDatabase("postgres") : undefined;
    const databaseConfig: DatabaseConfig = postgres?.config ?? {
      kind: "sqlite",
      file: path.join(dataDir, "bastion.sqlite"),
    };
    const linkedinUrl = `https://www.linkedin.com/in/bastion-restart-${dialect}-${Date.now()}`;
    const keepAlive = new Agent({ keepAlive: true });
    const servers: RunningServer[] = [];
    try {
      const first = await startServer({ dialect, dataDir, databaseUrl: postgres?.url });
      servers.push(first);
      const secretFile = path.join(dataDir, "auth-secret");
      const secret = readFileSync(secretFile, "utf8");
      expect(secret.trim().length).toBeGreaterThanOrEqual(32);
      expect(first.logs().some((line) => /^Applied \d+ migration/.test(String(line.msg)))).toBe(true);

      // A write made while the server runs (the admin screens will make it through the server).
      const handle = openDatabase(databaseConfig);
      try {
        await handle.db
          .updateTable("site_settings")
          .set({ setting_value: linkedinUrl })
          .where("setting_key", "=", "linkedin_url")
          .execute();
      } finally {
        await handle.close();
      }

      await stopDuringPageRequest(first, keepAlive);

      const second = await startServer({ dialect, dataDir, databaseUrl: postgres?.url });
      servers.push(second);
      const home = await request(`${second.url}/`);
      expect(home.status).toBe(200);
      expect(footerLinkedinHref(home.text())).toBe(linkedinUrl);
      expect(readFileSync(secretFile, "utf8")).toBe(secret);
      // The schema and the seeded content were kept: nothing to migrate the second time.
      expect(second.logs().some((line) => /^Applied \d+ migration/.test(String(line.msg)))).toBe(false);
      expect(await second.stop()).toBe(0);
      expectStoppedLogLines(second);
    } finally {
      keepAlive.destroy();
      await Promise.all(servers.map((server) => server.stop()));
      await postgres?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** Runs a server process that is expected to fail at start-up: its exit code and stderr. */
async function runFailingStart(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  const child = spawnServerProcess(env);
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  child.stdout?.resume();
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  return { code, stderr };
}

/** The LISTEN sockets bound to 127.0.0.1:port, from the kernel's own table. */
function listeningSocketsOn(port: number): number {
  const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, "0")}`;
  return readFileSync("/proc/net/tcp", "utf8")
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields[1] === local && fields[3] === "0A").length;
}

describe("configuration errors", () => {
  it("exits with code 1 and one line on stderr naming the variable", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "bastion-config-"));
    try {
      const { code, stderr } = await runFailingStart(serverEnvironment({ PORT: "not-a-port", DATA_DIR: dataDir }));
      expect(code).toBe(1);
      const lines = stderr.trimEnd().split("\n");
      expect(lines, stderr).toHaveLength(1);
      expect(lines[0]).toMatch(/PORT/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("listening sockets", () => {
  it("accepts on several sockets of its port, and a second instance cannot take the port", async () => {
    const server = await startServer();
    const dataDir = mkdtempSync(path.join(tmpdir(), "bastion-second-"));
    try {
      // Several sockets let one turn of the event loop accept several waiting connections.
      expect(listeningSocketsOn(server.port)).toBe(LISTENING_SOCKETS);
      expect(LISTENING_SOCKETS).toBeGreaterThan(1);

      // SO_REUSEPORT must not let another process share the port and split the visitors.
      const second = await runFailingStart(
        serverEnvironment({ PORT: String(server.port), HOST: "127.0.0.1", DATA_DIR: dataDir }),
      );
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(/EADDRINUSE/);
      expect(listeningSocketsOn(server.port)).toBe(LISTENING_SOCKETS);

      // Connections opened at once, spread over the sockets, are all answered.
      const answers = await Promise.all(Array.from({ length: 40 }, () => request(`${server.url}/healthz`)));
      expect(answers.map((answer) => answer.status)).toEqual(Array(40).fill(200));
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("start-up", () => {
  it("stops gracefully on a SIGTERM sent the moment it says it listens", async () => {
    // Before its handler was installed a SIGTERM ended the process on the spot (a third
    // of such starts here, more on a busy machine): several starts make that show.
    for (let start = 0; start < 8; start += 1) {
      const server = await startServer();
      expect(await server.stop(), `start ${start + 1}: exit code; stderr: ${server.stderr()}`).toBe(0);
      expectStoppedLogLines(server);
    }
  });

  it("keeps Node's compile cache of the server's modules, for the next start to read", async () => {
    // Node keeps it in the system's temporary folder, os.tmpdir(): here one of the test's own.
    const temporary = mkdtempSync(path.join(tmpdir(), "bastion-compile-cache-"));
    try {
      const server = await startServer({ env: { TMPDIR: temporary, NODE_COMPILE_CACHE: undefined } });
      // Written as the process exits.
      expect(await server.stop()).toBe(0);
      const cached = readdirSync(path.join(temporary, "node-compile-cache"), { recursive: true, withFileTypes: true });
      // Hundreds of modules: the server's own and its dependencies', not only the entry.
      expect(cached.filter((entry) => entry.isFile()).length).toBeGreaterThan(200);
    } finally {
      rmSync(temporary, { recursive: true, force: true });
    }
  });
});
