import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import pino from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { backupDirectory } from "../../server/backup/backup.ts";
import { backupBeforeMigrating } from "../../server/backup/pre-migration.ts";
import { restoreBackup } from "../../server/backup/restore.ts";
import { prepareDatabase } from "../../server/db/setup.ts";
import { silentProgress } from "../../server/transfer/progress.ts";
import { existingTables } from "../../server/transfer/read-rows.ts";
import { appliedSchemaVersion, latestSchemaVersion, migrateTo } from "../../server/transfer/schema-version.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { createInstallation, type Installation } from "./site-data.ts";

/** A logger whose lines the test reads. */
function recordingLogger() {
  const lines: { msg: string; file?: string }[] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

const backups = (site: Installation) => {
  const directory = backupDirectory(site.config);
  return existsSync(directory) ? readdirSync(directory) : [];
};

describe.each(TEST_DIALECTS)("the backup before migrating on %s", (dialect) => {
  const sites: Installation[] = [];
  const site = async (migrated = false) => {
    const created = await createInstallation(dialect, migrated);
    sites.push(created);
    return created;
  };

  afterAll(async () => {
    for (const created of sites) await created.destroy();
  });

  it("is taken when migrations are pending on a database with data, then the schema is brought up to date", async () => {
    const old = await site();
    await migrateTo(old.handle.db, dialect, "0004-media");
    await sql`insert into chapters (id, slug, title, number, order_index) values ('chapter-1', 'first', 'First', 1, 0)`.execute(
      old.handle.db,
    );
    const { logger, lines } = recordingLogger();
    const upgraded = await prepareDatabase(old.config.database, logger, (handle) =>
      backupBeforeMigrating(old.config, handle, logger),
    );
    try {
      expect(await appliedSchemaVersion(upgraded.db)).toBe(latestSchemaVersion());
    } finally {
      await upgraded.close();
    }
    const [name, ...others] = backups(old);
    expect(others).toEqual([]);
    expect(name).toMatch(/^bastion-before-0005-phone-factor-.+\.tar\.gz$/);
    const file = path.join(backupDirectory(old.config), name!);
    expect(lines.map((line) => line.msg)).toContain(`Backed up the database before migrating: ${file}`);
    // Logged before the migrations ran.
    const backedUp = lines.findIndex((line) => line.msg.startsWith("Backed up the database"));
    const migrated = lines.findIndex((line) => line.msg.startsWith("Applied "));
    expect(backedUp).toBeGreaterThanOrEqual(0);
    expect(backedUp).toBeLessThan(migrated);

    // The backup holds the data at the old schema; restored, it is migrated again.
    const blank = await site();
    const restored = await restoreBackup(blank.config, blank.handle, file, { force: false });
    expect(restored.manifest.schemaVersion).toBe("0004-media");
    expect(await appliedSchemaVersion(blank.handle.db)).toBe(latestSchemaVersion());
    const chapters = await blank.handle.db.selectFrom("chapters").select(["id", "title"]).execute();
    expect(chapters).toEqual([{ id: "chapter-1", title: "First" }]);
  });

  it("restored with --force over the database the upgrade migrated, puts the site back as it was before", async () => {
    const old = await site();
    await migrateTo(old.handle.db, dialect, "0004-media");
    await sql`insert into chapters (id, slug, title, number, order_index) values ('chapter-1', 'first', 'First', 1, 0)`.execute(
      old.handle.db,
    );
    const { logger } = recordingLogger();
    const upgraded = await prepareDatabase(old.config.database, logger, (handle) =>
      backupBeforeMigrating(old.config, handle, logger),
    );
    const chapterIds = async () =>
      (await upgraded.db.selectFrom("chapters").select("id").orderBy("id").execute()).map((row) => row.id);
    try {
      const file = path.join(backupDirectory(old.config), backups(old)[0]!);
      // The upgraded site changes, and a newer release (unknown to this one) migrated it
      // further: a table of its own, referencing one of ours.
      await sql`insert into chapters (id, slug, title, number, order_index) values ('chapter-2', 'second', 'Second', 2, 1)`.execute(
        upgraded.db,
      );
      await sql`create table newer_release_notes (id text primary key, chapter_id text not null references chapters (id))`.execute(
        upgraded.db,
      );
      await sql`insert into newer_release_notes (id, chapter_id) values ('note-1', 'chapter-2')`.execute(upgraded.db);
      await sql`insert into kysely_migration (name, timestamp) values ('9999-newer-release', ${new Date().toISOString()})`.execute(
        upgraded.db,
      );
      const upgradedState = async () => ({
        schema: await appliedSchemaVersion(upgraded.db),
        chapters: await chapterIds(),
        tables: await existingTables(upgraded.db),
      });
      const before = await upgradedState();
      expect(before.tables.has("newer_release_notes")).toBe(true);

      await expect(restoreBackup(old.config, upgraded, file, { force: false })).rejects.toThrow(
        "This database is at schema 9999-newer-release, newer than the backup's 0004-media. Add --force to replace it",
      );
      // A restore that fails half-way leaves the database as the upgrade left it.
      const interrupted = {
        ...silentProgress,
        rows() {
          throw new Error("interrupted");
        },
      };
      await expect(restoreBackup(old.config, upgraded, file, { force: true, progress: interrupted })).rejects.toThrow(
        "interrupted",
      );
      expect(await upgradedState()).toEqual(before);

      const restored = await restoreBackup(old.config, upgraded, file, { force: true });
      expect(restored.manifest.schemaVersion).toBe("0004-media");
      expect(await appliedSchemaVersion(upgraded.db)).toBe(latestSchemaVersion());
      expect(await chapterIds()).toEqual(["chapter-1"]);
      expect((await existingTables(upgraded.db)).has("newer_release_notes")).toBe(false);
    } finally {
      await upgraded.close();
    }
  });

  it("is not taken for a blank database, nor for one that is up to date", async () => {
    const blank = await site();
    const { logger } = recordingLogger();
    const prepared = await prepareDatabase(blank.config.database, logger, (handle) =>
      backupBeforeMigrating(blank.config, handle, logger),
    );
    try {
      await sql`insert into chapters (id, slug, title, number, order_index) values ('chapter-2', 'second', 'Second', 2, 0)`.execute(
        prepared.db,
      );
      expect(await backupBeforeMigrating(blank.config, prepared, logger)).toBeNull();
    } finally {
      await prepared.close();
    }
    expect(backups(blank)).toEqual([]);
  });
});
