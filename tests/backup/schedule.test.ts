import { existsSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backupDirectory } from "../../server/backup/backup.ts";
import { runScheduledBackup, type ScheduleConfig, startBackupSchedule } from "../../server/backup/schedule.ts";
import { ConfigError, loadConfig } from "../../server/config.ts";
import { openDatabase } from "../../server/db/connection.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { createInstallation, type Installation, logger, seedSite } from "./site-data.ts";

const scheduled = (directory: string) =>
  (existsSync(directory) ? readdirSync(directory) : []).filter((name) => name.startsWith("bastion-scheduled-")).sort();

describe("BACKUP_SCHEDULE and BACKUP_KEEP", () => {
  it.each([
    [undefined, null],
    ["off", null],
    ["hourly", "@hourly"],
    ["Daily", "@daily"],
    ["weekly", "@weekly"],
    ["30 3 * * *", "30 3 * * *"],
  ])("BACKUP_SCHEDULE=%s runs the pattern %s", (value, pattern) => {
    expect(loadConfig(value === undefined ? {} : { BACKUP_SCHEDULE: value }).backup).toEqual({
      schedule: pattern,
      keep: 7,
    });
  });

  it.each(["sometimes", "61 * * * *", "* * *"])("refuses BACKUP_SCHEDULE=%s, naming the variable", (value) => {
    expect(() => loadConfig({ BACKUP_SCHEDULE: value })).toThrow(
      new ConfigError("BACKUP_SCHEDULE must be off, hourly, daily, weekly or a cron expression (e.g. 30 3 * * *)"),
    );
  });

  it.each(["0", "-1", "2.5", "many", "1001"])("refuses BACKUP_KEEP=%s", (value) => {
    expect(() => loadConfig({ BACKUP_KEEP: value })).toThrow(
      new ConfigError("BACKUP_KEEP must be an integer between 1 and 1000"),
    );
  });

  it("takes BACKUP_KEEP as a count", () => {
    expect(loadConfig({ BACKUP_KEEP: "3" }).backup.keep).toBe(3);
  });
});

describe.each(TEST_DIALECTS)("scheduled backups on %s", (dialect) => {
  let site: Installation;
  let config: ScheduleConfig;

  beforeAll(async () => {
    site = await createInstallation(dialect);
    await seedSite(site);
    config = { ...site.config, backup: { schedule: "@daily", keep: 3 } };
  });

  afterAll(async () => {
    await site?.destroy();
  });

  // First: the tests below claim slots in the 2030s, and a slot before the last one claimed is refused.
  it("runs on its cron schedule until stopped", async () => {
    const directory = backupDirectory(config);
    const before = scheduled(directory);
    const schedule = startBackupSchedule({
      config: { ...config, backup: { schedule: "* * * * * *", keep: 100 } },
      handle: site.handle,
      logger,
    });
    try {
      await expect
        .poll(() => scheduled(directory).filter((name) => !before.includes(name)).length, { timeout: 8000 })
        .toBeGreaterThan(0);
    } finally {
      await schedule.stop();
    }
    const after = scheduled(directory);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(scheduled(directory)).toEqual(after);
  });

  it("keeps exactly BACKUP_KEEP scheduled backups, the newest, and never deletes other backups", async () => {
    const directory = backupDirectory(config);
    const start = Date.parse("2030-01-01T00:00:00.000Z");
    const written: string[] = [];
    for (let day = 0; day < 5; day++) {
      const file = await runScheduledBackup({
        config,
        handle: site.handle,
        logger,
        slot: new Date(start + day * 86_400_000),
      });
      written.push(path.basename(file!));
      if (day === 0) writeFileSync(path.join(directory, "bastion-2029-12-31T00-00-00-000Z.tar.gz"), "by hand");
    }
    expect(scheduled(directory)).toEqual(written.slice(2));
    expect(scheduled(directory)).toHaveLength(3);
    expect(existsSync(path.join(directory, "bastion-2029-12-31T00-00-00-000Z.tar.gz"))).toBe(true);
  });

  it("takes a slot once, however many instances run it", async () => {
    const slot = new Date("2031-06-01T03:00:00.000Z");
    // A second instance: its own connection (pool) to the same database.
    const other = openDatabase(site.config.database);
    try {
      const results = await Promise.all([
        runScheduledBackup({ config, handle: site.handle, logger, slot }),
        runScheduledBackup({ config, handle: other, logger, slot }),
      ]);
      expect(results.filter((file) => file !== null)).toHaveLength(1);
      expect(await runScheduledBackup({ config, handle: other, logger, slot })).toBeNull();
      const next = new Date(slot.getTime() + 86_400_000);
      expect(await runScheduledBackup({ config, handle: other, logger, slot: next })).toMatch(
        /bastion-scheduled-2031-06-02T03-00-00-000Z\.tar\.gz$/,
      );
    } finally {
      await other.close();
    }
  });
});
