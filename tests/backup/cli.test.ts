import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATA_FORMAT } from "../../server/transfer/data-file.ts";
import { appliedSchemaVersion, latestSchemaVersion, migrateTo } from "../../server/transfer/schema-version.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { runScript } from "../helpers/run-script.ts";
import { createInstallation, type Installation, mediaFiles, SECRET, seedSite, snapshotTables } from "./site-data.ts";

/** Spawned Node processes start slowly on a busy 2-core machine. */
const SLOW_TEST_MS = 120_000;

/** The environment of `npm run cli` for an installation. */
function environment(site: Installation): Record<string, string> {
  const database = site.config.database;
  return {
    DATA_DIR: site.config.dataDir,
    DATABASE_URL: database.kind === "postgres" ? database.url : `file:${database.file}`,
    AUTH_SECRET: SECRET,
  };
}

const cli = (argv: string[], site: Installation) => runScript("cli/main.ts", argv, environment(site));

describe.each(TEST_DIALECTS)("node cli/main.ts backup, restore, export and import on %s", (dialect) => {
  let source: Installation;
  const targets: Installation[] = [];
  const folder = mkdtempSync(path.join(tmpdir(), "bastion-cli-backup-"));
  const target = async () => {
    const created = await createInstallation(dialect, false);
    targets.push(created);
    return created;
  };

  /** An installation one migration behind, holding a row: what upgrades back up first. */
  const olderSiteWithData = async () => {
    const old = await target();
    await migrateTo(old.handle.db, dialect, "0004-media");
    await sql`insert into skills (id, name, order_index) values ('skill-1', 'Threat hunting', 0)`.execute(
      old.handle.db,
    );
    return old;
  };

  beforeAll(async () => {
    source = await createInstallation(dialect);
    await seedSite(source);
  });

  afterAll(async () => {
    for (const created of targets) await created.destroy();
    await source?.destroy();
    rmSync(folder, { recursive: true, force: true });
  });

  it(
    "backs up to DATA_DIR/backups by default and restores into an empty installation",
    async () => {
      const backup = await cli(["backup"], source);
      expect(backup.stderr).toBe("");
      expect(backup.code).toBe(0);
      // Not a terminal: no progress line, only the summary.
      expect(backup.stdout).not.toContain("\r");
      const match =
        /^Backed up (\d+) tables, ([\d,]+) rows, (\d+) files \(.+\) to (\S+bastion-\S+\.tar\.gz) \(.+ archive\) in \d+\.\d s\.\n$/.exec(
          backup.stdout,
        );
      expect(match, backup.stdout).not.toBeNull();
      const file = match![4]!;
      expect(path.dirname(file)).toBe(path.join(source.config.dataDir, "backups"));
      expect(Number(match![3])).toBe(Object.keys(await mediaFiles(source.config)).length);

      const empty = await target();
      const restore = await cli(["restore", file], empty);
      expect(restore.stderr).toBe("");
      expect(restore.code).toBe(0);
      expect(restore.stdout).toMatch(
        new RegExp(
          `^Restored \\d+ tables, [\\d,]+ rows, ${match![3]} files \\(.+\\) from ${file.replaceAll(".", "\\.")} in \\d+\\.\\d s\\.\\n`,
        ),
      );
      expect(await snapshotTables(empty.handle)).toEqual(await snapshotTables(source.handle));
      expect(await mediaFiles(empty.config)).toEqual(await mediaFiles(source.config));

      // Again: the installation is not empty any more.
      const again = await cli(["restore", file], empty);
      expect(again.code).toBe(2);
      expect(again.stdout).toBe("");
      expect(again.stderr).toMatch(/^This installation is not empty: .* add --force to replace everything\.\n$/);
      expect((await cli(["restore", file, "--force"], empty)).code).toBe(0);
    },
    SLOW_TEST_MS,
  );

  it(
    "writes a backup to the file named, and refuses a restore without a file",
    async () => {
      const file = path.join(folder, "named.tar.gz");
      const backup = await cli(["backup", file], source);
      expect(backup.code).toBe(0);
      expect(existsSync(file)).toBe(true);
      const missing = await cli(["restore"], source);
      expect(missing).toEqual({
        code: 2,
        stdout: "",
        stderr: "Usage: npm run cli -- restore <file.tar.gz> [--force]\n",
      });
    },
    SLOW_TEST_MS,
  );

  it(
    "db:migrate backs up a database with data before applying pending migrations",
    async () => {
      const old = await olderSiteWithData();
      const result = await cli(["db:migrate"], old);
      expect(result.stderr).toBe("");
      const backups = path.join(old.config.dataDir, "backups");
      const [name, ...others] = readdirSync(backups);
      expect(others).toEqual([]);
      expect(name).toMatch(/^bastion-before-0005-phone-factor-\S+\.tar\.gz$/);
      expect(result.stdout).toBe(
        `Backed up the database before migrating: ${path.join(backups, name!)}\n` +
          `Applied 4 migration(s) to the ${dialect} database: 0005-phone-factor, 0006-audit-actor-kept, 0007-subscriber-bounced-at, 0008-newsletter-active-periods\n`,
      );
    },
    SLOW_TEST_MS,
  );

  it(
    "users:list backs up a database with data before migrating it, as the server would",
    async () => {
      const old = await olderSiteWithData();
      const listed = await cli(["users:list"], old);
      expect(listed.code).toBe(0);
      const backups = path.join(old.config.dataDir, "backups");
      const [name, ...others] = readdirSync(backups);
      expect(others).toEqual([]);
      expect(name).toMatch(/^bastion-before-0005-phone-factor-\S+\.tar\.gz$/);
      expect(listed.stderr).toBe(`Backed up the database before migrating: ${path.join(backups, name!)}\n`);
      expect(await appliedSchemaVersion(old.handle.db)).toBe(latestSchemaVersion());
    },
    SLOW_TEST_MS,
  );

  it(
    "import checks its file before touching the schema, and backs up a database with data before migrating it",
    async () => {
      const old = await olderSiteWithData();
      const missing = path.join(folder, "missing.json");
      expect(await cli(["import", missing], old)).toEqual({
        code: 2,
        stdout: "",
        stderr: `${missing} does not exist.\n`,
      });
      const wrong = path.join(folder, "not-an-export.json");
      writeFileSync(wrong, '{"hello":"world"}\n');
      const refused = await cli(["import", wrong], old);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toBe(
        `${wrong} is not a Bastion export file (its first line is not a "${DATA_FORMAT}" header).\n`,
      );
      expect(await appliedSchemaVersion(old.handle.db)).toBe("0004-media");
      expect(existsSync(path.join(old.config.dataDir, "backups"))).toBe(false);

      const file = path.join(folder, "for-the-old-site.json");
      expect((await cli(["export", file], source)).code).toBe(0);
      const imported = await cli(["import", file, "--force"], old);
      expect(imported.code).toBe(0);
      const [backup, ...others] = readdirSync(path.join(old.config.dataDir, "backups"));
      expect(others).toEqual([]);
      expect(backup).toMatch(/^bastion-before-0005-phone-factor-\S+\.tar\.gz$/);
      expect(imported.stdout).toMatch(/^Backed up the database before migrating: \S+\.tar\.gz\nImported /);
    },
    SLOW_TEST_MS,
  );

  it(
    "exports and imports through the same commands",
    async () => {
      const file = path.join(folder, "site.json");
      const exported = await cli(["export", file], source);
      expect(exported.stderr).toBe("");
      expect(exported.stdout).toMatch(
        /^Exported \d+ tables, [\d,]+ rows, 0 files \(0 B\) to \S+site\.json in \d+\.\d s\.\n$/,
      );
      const empty = await target();
      const imported = await cli(["import", file], empty);
      expect(imported.stderr).toBe("");
      expect(imported.code).toBe(0);
      expect(imported.stdout).toMatch(
        /^Imported \d+ tables, [\d,]+ rows, 0 files \(0 B\) from \S+site\.json in \d+\.\d s\.\n/,
      );
      const again = await cli(["import", file], empty);
      expect(again.code).toBe(2);
      expect(again.stderr).toMatch(
        /^The database already holds data \(.*\)\. Import into an empty database, or add --force/,
      );
      const exists = await cli(["export", file], source);
      expect(exists).toEqual({
        code: 2,
        stdout: "",
        stderr: `${file} already exists: choose another name or remove it first.\n`,
      });
    },
    SLOW_TEST_MS,
  );
});
