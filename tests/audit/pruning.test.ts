import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { deleteAuditRowsBefore } from "../../server/audit/audit-log.ts";
import { startAuditLogPruning } from "../../server/audit/pruning.ts";
import { loadConfig } from "../../server/config.ts";
import { openDatabase } from "../../server/db/connection.ts";
import { type Database, toJson } from "../../server/db/schema.ts";
import { startServices } from "../../server/services.ts";
import { type MigratedDatabase, migratedDatabase, TEST_DIALECTS } from "../helpers/databases.ts";
import { memoryLogger, sleep } from "../mail/helpers.ts";

const DAY_MS = 86_400_000;

const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);

/** Failed sign-ins `ages` days old (oldest first when ages descend), ids `<prefix>-<index>`. */
async function insertFailedSignIns(db: Kysely<Database>, prefix: string, ages: number[]): Promise<string[]> {
  const rows = ages.map((age, index) => ({
    id: `${prefix}-${String(index).padStart(5, "0")}`,
    at: daysAgo(age).toISOString(),
    user_id: null,
    action: "auth.sign-in-failed",
    entity: "account",
    entity_id: "ada@example.test",
    details: toJson({ ip: "203.0.113.7" }),
  }));
  for (let start = 0; start < rows.length; start += 500) {
    await db
      .insertInto("audit_log")
      .values(rows.slice(start, start + 500))
      .execute();
  }
  return rows.map((row) => row.id);
}

async function remainingIds(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom("audit_log").select("id").orderBy("id").execute();
  return rows.map((row) => row.id);
}

describe.each(TEST_DIALECTS)("audit-log retention on %s", (dialect) => {
  let database: MigratedDatabase;
  const db = () => database.handle.db;

  beforeAll(async () => {
    database = await migratedDatabase(dialect);
  });
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(async () => {
    await db().deleteFrom("audit_log").execute();
  });

  it("deletes the rows older than the cutoff and keeps the younger ones", async () => {
    await insertFailedSignIns(db(), "old", [400, 366]);
    const recent = await insertFailedSignIns(db(), "recent", [364, 10, 0]);

    expect(await deleteAuditRowsBefore(db(), daysAgo(365), { dialect })).toBe(2);
    expect(await remainingIds(db())).toEqual(recent);
    expect(await deleteAuditRowsBefore(db(), daysAgo(365), { dialect })).toBe(0);
  });

  it("deletes batch after batch until no row is older than the cutoff", async () => {
    await insertFailedSignIns(db(), "old", [410, 409, 408, 407, 406, 405, 404, 403, 402, 401]);
    const recent = await insertFailedSignIns(db(), "recent", [1, 0]);

    expect(await deleteAuditRowsBefore(db(), daysAgo(365), { dialect, batchSize: 3 })).toBe(10);
    expect(await remainingIds(db())).toEqual(recent);
  });

  it("stops between batches when asked, the oldest rows gone first", async () => {
    const old = await insertFailedSignIns(db(), "old", [410, 409, 408, 407, 406]);

    const deleted = await deleteAuditRowsBefore(db(), daysAgo(365), { dialect, batchSize: 3, stopping: () => true });
    expect(deleted).toBe(3);
    expect(await remainingIds(db())).toEqual(old.slice(3));
  });

  it("lets two deletions run at once, neither failing, every old row deleted once", async () => {
    await insertFailedSignIns(
      db(),
      "old",
      Array.from({ length: 3000 }, (_, index) => 400 + index / 100),
    );
    const recent = await insertFailedSignIns(db(), "recent", [1]);
    // A second connection (pool on PostgreSQL), as another instance would have.
    const other = openDatabase(database.testDb.config);
    try {
      const cutoff = daysAgo(365);
      const counts = await Promise.all([
        deleteAuditRowsBefore(db(), cutoff, { dialect, batchSize: 50 }),
        deleteAuditRowsBefore(other.db, cutoff, { dialect, batchSize: 50 }),
      ]);
      expect(counts[0] + counts[1]).toBe(3000);
    } finally {
      await other.close();
    }
    expect(await remainingIds(db())).toEqual(recent);
  });

  it("has the pruning job delete the rows older than its days, and say so in its log", async () => {
    await insertFailedSignIns(db(), "old", [31, 30.5]);
    const recent = await insertFailedSignIns(db(), "recent", [29]);
    const { logger, lines } = memoryLogger();
    const pruning = startAuditLogPruning({ db: db(), dialect, days: 30, logger, autoRun: false });
    try {
      expect(await pruning.runOnce()).toBe(2);
    } finally {
      await pruning.stop();
    }
    expect(await remainingIds(db())).toEqual(recent);
    expect(lines().find((line) => line.deleted !== undefined)).toMatchObject({
      deleted: 2,
      msg: "Deleted 2 audit-log rows older than 30 days",
    });
  });

  it("is started with the server's services, which delete rows older than AUDIT_LOG_DAYS at start-up", async () => {
    await insertFailedSignIns(db(), "old", [400, 91]);
    const recent = await insertFailedSignIns(db(), "recent", [89]);
    const dataDir = mkdtempSync(path.join(tmpdir(), "bastion-audit-"));
    const { logger, lines } = memoryLogger();
    const running = await startServices(
      loadConfig({ DATA_DIR: dataDir, DATABASE_URL: database.testDb.url, AUDIT_LOG_DAYS: "90" }),
      logger,
    );
    try {
      const deadline = Date.now() + 10_000;
      while ((await remainingIds(db())).length > recent.length && Date.now() < deadline) await sleep(50);
      expect(await remainingIds(db())).toEqual(recent);
      expect(lines().find((line) => line.deleted !== undefined)).toMatchObject({
        deleted: 2,
        msg: "Deleted 2 audit-log rows older than 90 days",
      });
    } finally {
      await running.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
