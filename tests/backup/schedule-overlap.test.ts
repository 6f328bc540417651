import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBackupSchedule } from "../../server/backup/schedule.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { createInstallation, type Installation, seedSite } from "./site-data.ts";

/**
 * A scheduled backup still running when the next one is due: the next one is skipped,
 * and the log says so rather than leaving a gap among the backups that nothing explains.
 */

describe.each(TEST_DIALECTS)("a scheduled backup due while the last one runs, on %s", (dialect) => {
  let site: Installation;

  beforeAll(async () => {
    site = await createInstallation(dialect);
    await seedSite(site);
  });

  afterAll(async () => {
    await site?.destroy();
  });

  it("is skipped with a warning in the log", async () => {
    const lines: { level: number; msg: string }[] = [];
    const logger = pino({ level: "debug" }, { write: (line: string) => lines.push(JSON.parse(line)) });
    // Every connection taken: the first run waits for one beyond the next second's slot.
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const connections = dialect === "postgres" ? (site.handle.pool?.options.max ?? 10) : 1;
    let taken = 0;
    const holders = Array.from({ length: connections }, () =>
      site.handle.db.connection().execute(async () => {
        taken += 1;
        await released;
      }),
    );
    await expect.poll(() => taken).toBe(connections);
    const schedule = startBackupSchedule({
      config: { ...site.config, backup: { schedule: "* * * * * *", keep: 100 } },
      handle: site.handle,
      logger,
    });
    try {
      await expect
        .poll(() => lines.filter((line) => line.level === 40).map((line) => line.msg), { timeout: 5000 })
        .toContain("Scheduled backup skipped: the previous one is still running");
    } finally {
      release();
      await Promise.all(holders);
      await schedule.stop();
    }
  });
});
