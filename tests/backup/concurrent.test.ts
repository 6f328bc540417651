import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { createBackup } from "../../server/backup/backup.ts";
import { restoreBackup } from "../../server/backup/restore.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { PROJECT_ROOT } from "../helpers/run-script.ts";
import { createInstallation, type Installation, seedSite } from "./site-data.ts";

/** Spawned Node processes start slowly on a busy 2-core machine. */
const SLOW_TEST_MS = 120_000;

/** The writer process and the number of changes it has committed so far. */
function startWriter(site: Installation, userId: string) {
  const nodeBin = path.join(PROJECT_ROOT, "node_modules/node/bin/node");
  const databaseUrl =
    site.config.database.kind === "postgres" ? site.config.database.url : `file:${site.config.database.file}`;
  const child: ChildProcess = spawn(nodeBin, ["tests/backup/concurrent-writer.ts"], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH, DATA_DIR: site.config.dataDir, DATABASE_URL: databaseUrl, WRITER_USER_ID: userId },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let written = 0;
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  createInterface({ input: child.stdout! }).on("line", (line) => {
    const match = /^wrote (\d+)$/.exec(line);
    if (match) written = Number(match[1]);
  });
  const exited = new Promise<number | null>((resolve) => child.once("close", resolve));
  return {
    written: () => written,
    stderr: () => stderr,
    async stop() {
      child.kill("SIGTERM");
      const kill = setTimeout(() => child.kill("SIGKILL"), 10_000);
      const code = await exited;
      clearTimeout(kill);
      return code;
    },
  };
}

describe.each(TEST_DIALECTS)("a backup of %s while another process writes", (dialect) => {
  const sites: Installation[] = [];
  afterAll(async () => {
    for (const site of sites) await site.destroy();
  });

  it(
    "restores a consistent database: every change whole, none half",
    async () => {
      const source = await createInstallation(dialect);
      sites.push(source);
      const { userId } = await seedSite(source);
      const writer = startWriter(source, userId);
      let before: number;
      let after: number;
      let backup: Awaited<ReturnType<typeof createBackup>>;
      try {
        await expect.poll(() => writer.written(), { timeout: 15_000 }).toBeGreaterThanOrEqual(5);
        before = writer.written();
        backup = await createBackup(source.config, source.handle);
        after = writer.written();
        await expect.poll(() => writer.written(), { timeout: 15_000 }).toBeGreaterThan(after);
      } finally {
        expect(await writer.stop(), writer.stderr()).toBe(0);
      }
      // The writer committed changes while the backup was being taken.
      expect(after).toBeGreaterThan(before);

      const target = await createInstallation(dialect, false);
      sites.push(target);
      await restoreBackup(target.config, target.handle, backup.file, { force: false });
      const db = target.handle.db;
      const chapters = await db.selectFrom("chapters").select("id").where("title", "like", "Written during%").execute();
      // Every change the snapshot saw committed, and only those (the seed's chapter aside).
      expect(chapters.length + 1).toBe(backup.manifest.tables.chapters);
      expect(chapters.length).toBeGreaterThanOrEqual(before);
      expect(chapters.length).toBeLessThanOrEqual(after + 1);
      // A chapter's notification and audit row were written in its transaction: all or nothing.
      const orphans = await sql<{ id: string }>`
      select c.id from chapters c
      where not exists (select 1 from notifications n where n.item_id = c.id)
         or not exists (select 1 from audit_log a where a.entity_id = c.id and a.action = 'chapter.created')`.execute(
        db,
      );
      expect(orphans.rows).toEqual([]);
      const strayNotifications = await sql<{ id: string }>`
      select n.id from notifications n
      where n.item_type = 'chapter' and not exists (select 1 from chapters c where c.id = n.item_id)`.execute(db);
      expect(strayNotifications.rows).toEqual([]);
      // A subscriber and the confirmation email were written together too.
      const subscribers = await db
        .selectFrom("newsletter_subscribers")
        .select("email")
        .where("email", "like", "writer-%")
        .execute();
      expect(subscribers.length).toBeGreaterThanOrEqual(before);
      const withoutEmail = await sql<{ email: string }>`
      select s.email from newsletter_subscribers s
      where s.email like 'writer-%'
        and not exists (select 1 from email_outbox o where o.to_address = s.email and o.kind = 'newsletter-confirmation')`.execute(
        db,
      );
      expect(withoutEmail.rows).toEqual([]);
    },
    SLOW_TEST_MS,
  );
});
