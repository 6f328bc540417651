import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getUserRoles } from "../../server/auth/roles.ts";
import { type DatabaseHandle, openDatabase } from "../../server/db/connection.ts";
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from "../helpers/databases.ts";

interface LogEntry {
  msg: string;
  userId?: string;
  err?: { message: string };
}

describe.each(TEST_DIALECTS)("a role lookup that fails on %s", (dialect) => {
  let testDb: TestDatabase;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    testDb = await createTestDatabase(dialect);
    // Never migrated: there is no user_roles table to read.
    handle = openDatabase(testDb.config);
  });
  afterAll(async () => {
    await handle?.close();
    await testDb?.drop();
  });

  it("denies every role and logs why", async () => {
    const entries: LogEntry[] = [];
    const logger = pino({ level: "error" }, { write: (line: string) => entries.push(JSON.parse(line) as LogEntry) });
    expect(await getUserRoles({ db: handle.db, logger }, "user-1")).toEqual({ isAdmin: false, isEditor: false });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ msg: "Role lookup failed: access denied", userId: "user-1" });
    expect(entries[0]!.err?.message).toMatch(/user_roles/);
  });
});
