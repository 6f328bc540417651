import path from "node:path";
import { ArchiveError } from "../../server/backup/archive.ts";
import { createBackup } from "../../server/backup/backup.ts";
import { restoreBackup } from "../../server/backup/restore.ts";
import { openDatabase } from "../../server/db/connection.ts";
import { DataFileError } from "../../server/transfer/data-file.ts";
import { formatBytes, summaryLine, terminalProgress } from "../../server/transfer/progress.ts";
import { TransferRefused } from "../../server/transfer/transfer.ts";
import { type CliCommand, UsageError } from "../command.ts";
import { openExistingDatabase } from "../existing-database.ts";

/** `backup` / `restore`: the database and the media files in one archive. */

/** Refusals and damaged archives are printed as they are (no stack), exit code 2. */
async function asUsage<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof TransferRefused || error instanceof ArchiveError || error instanceof DataFileError) {
      throw new UsageError(error.message);
    }
    throw error;
  }
}

export const backupCommands: CliCommand[] = [
  {
    name: "backup",
    summary: "Back up the database and media files into one .tar.gz (default: DATA_DIR/backups/).",
    usage: "backup [file.tar.gz]",
    options: {},
    positionals: true,
    async run({ config, positionals, output }) {
      const [file, ...extra] = positionals ?? [];
      if (extra.length > 0) throw new UsageError("Usage: npm run cli -- backup [file.tar.gz]");
      const started = performance.now();
      const handle = openExistingDatabase(config);
      const progress = terminalProgress(output);
      try {
        const result = await asUsage(() =>
          createBackup(config, handle, { file: file ? path.resolve(file) : undefined, progress }),
        );
        progress.finish();
        const totals = { ...progress.totals, tables: Object.keys(result.manifest.tables).length };
        const seconds = (performance.now() - started) / 1000;
        output.write(
          `${summaryLine("Backed up", totals, seconds, `to ${result.file} (${formatBytes(result.bytes)} archive)`)}\n`,
        );
      } finally {
        progress.finish();
        await handle.close();
      }
    },
  },
  {
    name: "restore",
    summary: "Restore a backup into an empty installation (--force replaces a non-empty one).",
    usage: "restore <file.tar.gz> [--force]",
    options: { force: { type: "boolean" } },
    positionals: true,
    async run({ config, values, positionals, output }) {
      const [file, ...extra] = positionals ?? [];
      if (!file || extra.length > 0) throw new UsageError("Usage: npm run cli -- restore <file.tar.gz> [--force]");
      const started = performance.now();
      const handle = openDatabase(config.database);
      const progress = terminalProgress(output);
      try {
        const result = await asUsage(() =>
          restoreBackup(config, handle, path.resolve(file), { force: values.force === true, progress }),
        );
        progress.finish();
        const seconds = (performance.now() - started) / 1000;
        const totals = { tables: result.tables, rows: result.rows, files: result.files, bytes: result.bytes };
        output.write(`${summaryLine("Restored", totals, seconds, `from ${path.resolve(file)}`)}\n`);
        output.write("Restart the server (or `kill -HUP <pid>`) so it shows the restored content.\n");
      } finally {
        progress.finish();
        await handle.close();
      }
    },
  },
];
