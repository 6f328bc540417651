import { rmSync } from "node:fs";
import path from "node:path";
import type { Request, Response } from "express";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { healthCheck } from "../../server/http/health.ts";
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from "../helpers/databases.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";
import { header, request } from "./client.ts";

/**
 * GET /healthz for load balancers: 200 while the database answers, 503 once it does not
 * or when its ping takes over 2 s, and no timer left behind by an answered check.
 */

describe.each(TEST_DIALECTS)("GET /healthz on %s", (dialect) => {
  let database: TestDatabase;
  let server: RunningServer;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    server = await startServer({
      dialect,
      databaseUrl: database.url,
    });
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it("answers 200 with the database reachable", async () => {
    const response = await request(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(header(response, "content-type")).toMatch(/^application\/json/);
    expect(header(response, "cache-control")).toBe("no-store");
    expect(JSON.parse(response.text())).toEqual({ status: "ok", database: "reachable" });
  });

  it("answers 503 once the database is gone", async () => {
    await makeDatabaseUnreachable(database);

    const response = await request(`${server.url}/healthz`);
    expect(response.status).toBe(503);
    expect(JSON.parse(response.text())).toMatchObject({ database: "unreachable" });
    await server.waitForLog((line) => line.level === 50 && /health check/i.test(String(line.msg)));
  });
});

describe("the health check's ping timeout", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Runs the handler on a response that records its status and body. */
  function check(ping: () => Promise<void>) {
    const answer: { status?: number; body?: unknown } = {};
    const res = {
      set: () => res,
      status: (code: number) => {
        answer.status = code;
        return res;
      },
      json: (body: unknown) => {
        answer.body = body;
        return res;
      },
    };
    const done = healthCheck(ping)({} as Request, res as unknown as Response, () => {});
    return { answer, done };
  }

  it("leaves no timer behind once the database has answered", async () => {
    vi.useFakeTimers();
    const { answer, done } = check(async () => {});
    await done;
    expect(answer.status).toBe(200);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("answers 503 when the database does not answer within 2 s", async () => {
    vi.useFakeTimers();
    const { answer, done } = check(() => new Promise<void>(() => {}));
    await vi.advanceTimersByTimeAsync(1999);
    expect(answer.status).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await done;
    expect(answer).toEqual({ status: 503, body: { status: "unavailable", database: "unreachable" } });
  });
});

async function makeDatabaseUnreachable(database: TestDatabase): Promise<void> {
  if (database.config.kind === "sqlite") {
    // The disk is "gone": the file and its WAL are removed under the running server.
    rmSync(path.dirname(database.config.file), { recursive: true, force: true });
    return;
  }
  const url = new URL(database.url);
  const name = url.pathname.slice(1);
  url.pathname = "/postgres";
  const client = new pg.Client({ connectionString: url.href });
  await client.connect();
  try {
    await client.query(`DROP DATABASE ${name} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
