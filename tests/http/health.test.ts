import { rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from "../helpers/databases.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";
import { header, request } from "./client.ts";

/** GET /healthz for load balancers: 200 while the database answers, 503 once it does not. */

describe.each(TEST_DIALECTS)("GET /healthz on %s", (dialect) => {
  let database: TestDatabase;
  let server: RunningServer;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    server = await startServer({
      dialect,
      databaseUrl: dialect === "sqlite" ? `file:${database.url}` : database.url,
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

async function makeDatabaseUnreachable(database: TestDatabase): Promise<void> {
  if (database.dialect === "sqlite") {
    // The disk is "gone": the file and its WAL are removed under the running server.
    rmSync(path.dirname(database.url), { recursive: true, force: true });
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
