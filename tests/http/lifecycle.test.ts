import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { DatabaseConfig } from "../../server/config.ts";
import { openDatabase } from "../../server/db/connection.ts";
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

describe("configuration errors", () => {
  it("exits with code 1 and one line on stderr naming the variable", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "bastion-config-"));
    try {
      const child = spawnServerProcess(serverEnvironment({ PORT: "not-a-port", DATA_DIR: dataDir }));
      let stderr = "";
      child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
      });
      child.stdout?.resume();
      const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
      expect(code).toBe(1);
      const lines = stderr.trimEnd().split("\n");
      expect(lines, stderr).toHaveLength(1);
      expect(lines[0]).toMatch(/PORT/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
