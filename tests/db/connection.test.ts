import { sql } from "kysely";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../../server/db/connection.ts";
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from "../helpers/databases.ts";

interface LogEntry {
  msg: string;
  err?: { message: string };
}

describe.skipIf(!TEST_DIALECTS.includes("postgres"))("the PostgreSQL pool", () => {
  let testDb: TestDatabase;
  let handle: DatabaseHandle | undefined;

  beforeAll(async () => {
    testDb = await createTestDatabase("postgres");
  });
  afterAll(async () => {
    await handle?.close();
    await testDb?.drop();
  });

  it("logs a connection lost while idle, and the next query reconnects", async () => {
    let reportLoss: (entry: LogEntry) => void = () => {};
    const lost = new Promise<LogEntry>((resolve) => {
      reportLoss = resolve;
    });
    const logger = pino({ level: "error" }, { write: (line: string) => reportLoss(JSON.parse(line) as LogEntry) });
    handle = openDatabase(testDb.config, logger);
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(handle.db);
    const pid = rows[0]!.pid;

    // The pooled connection is idle now: end it from the server's side.
    const admin = new pg.Client({ connectionString: (testDb.config as { url: string }).url });
    await admin.connect();
    try {
      await admin.query("select pg_terminate_backend($1)", [pid]);
    } finally {
      await admin.end();
    }

    const entry = await lost;
    expect(entry.msg).toBe("PostgreSQL connection lost while idle; the next query reconnects");
    expect(entry.err?.message).toMatch(/terminat/i);
    const again = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(handle.db);
    expect(again.rows[0]!.pid).not.toBe(pid);
  });
});
