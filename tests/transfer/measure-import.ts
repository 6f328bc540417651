/**
 * How long `export`, `import`, `backup` and `restore` take with 100,000 subscribers, on
 * SQLite and (with TEST_DATABASE_URL) PostgreSQL: `node tests/transfer/measure-import.ts [count]`.
 * A measurement to read, not a test: it prints its figures and asserts nothing.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createBackup } from "../../server/backup/backup.ts";
import { restoreBackup } from "../../server/backup/restore.ts";
import { loadConfig } from "../../server/config.ts";
import { openDatabase } from "../../server/db/connection.ts";
import { prepareDatabase } from "../../server/db/setup.ts";
import { createLogger } from "../../server/logger.ts";
import { insertRows } from "../../server/transfer/load.ts";
import { tableSpec } from "../../server/transfer/tables.ts";
import { exportToFile, importFromFile } from "../../server/transfer/transfer.ts";
import { createTestDatabase, TEST_DIALECTS } from "../helpers/databases.ts";

const count = Number(process.argv[2] ?? 100_000);
const logger = createLogger({ level: "silent" });
const folder = mkdtempSync(path.join(tmpdir(), "bastion-measure-"));
const file = path.join(folder, "subscribers.json");

async function seconds(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
}

try {
  const sourceDb = await createTestDatabase("sqlite");
  const source = await prepareDatabase(sourceDb.config, logger);
  const spec = tableSpec("newsletter_subscribers")!;
  const columns = Object.keys(spec.columns);
  const at = new Date("2026-01-01T00:00:00.000Z").getTime();
  for (let start = 0; start < count; start += 5000) {
    const rows = [];
    for (let index = start; index < Math.min(count, start + 5000); index++) {
      const time = new Date(at + index * 1000).toISOString();
      const row: Record<string, unknown> = {
        id: `subscriber-${String(index).padStart(7, "0")}`,
        email: `reader-${index}@example.test`,
        status: index % 10 === 0 ? "unsubscribed" : "active",
        subscribed_at: time,
        confirmed_at: time,
        consent_at: time,
        consent_source: "form",
        consent_ip_hash: "0f".repeat(32),
        updated_at: time,
      };
      rows.push(columns.map((column) => row[column] ?? null));
    }
    await insertRows(source.db, "newsletter_subscribers", columns, rows);
  }
  const exportSeconds = await seconds(() => exportToFile(source, file));
  await source.close();
  await sourceDb.drop();
  console.log(
    `export of ${count.toLocaleString("en")} subscribers (SQLite): ${exportSeconds.toFixed(1)} s, ${(statSync(file).size / 1024 / 1024).toFixed(1)} MiB`,
  );

  for (const dialect of TEST_DIALECTS) {
    const targetDb = await createTestDatabase(dialect);
    const target = await prepareDatabase(targetDb.config, logger);
    const heapBefore = process.memoryUsage().rss;
    const importSeconds = await seconds(() => importFromFile(target, file, { force: false }));
    const rss = process.memoryUsage().rss;
    console.log(
      `import of ${count.toLocaleString("en")} subscribers into ${dialect}: ${importSeconds.toFixed(1)} s (RSS ${(heapBefore / 1024 / 1024).toFixed(0)} → ${(rss / 1024 / 1024).toFixed(0)} MiB)`,
    );
    // The same data through a backup and a restore into a blank database of the same kind.
    const config = loadConfig({ DATA_DIR: path.join(folder, dialect), DATABASE_URL: targetDb.url });
    const archive = path.join(folder, `${dialect}.tar.gz`);
    const backupSeconds = await seconds(() => createBackup(config, target, { file: archive }));
    const blankDb = await createTestDatabase(dialect);
    const blank = openDatabase(blankDb.config);
    const restoreConfig = loadConfig({ DATA_DIR: path.join(folder, `${dialect}-restored`), DATABASE_URL: blankDb.url });
    const restoreSeconds = await seconds(() => restoreBackup(restoreConfig, blank, archive, { force: false }));
    console.log(
      `backup of the same on ${dialect}: ${backupSeconds.toFixed(1)} s (${(statSync(archive).size / 1024 / 1024).toFixed(1)} MiB archive); restore into a blank ${dialect} database: ${restoreSeconds.toFixed(1)} s`,
    );
    await blank.close();
    await blankDb.drop();
    await target.close();
    await targetDb.drop();
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}
