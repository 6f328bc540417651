import path from "node:path";
import { backupBeforeMigrating } from "../../server/backup/pre-migration.ts";
import { openDatabase } from "../../server/db/connection.ts";
import { migrateToLatest } from "../../server/db/migrate.ts";
import { seedDefaults } from "../../server/db/seed.ts";
import { DataFileError } from "../../server/transfer/data-file.ts";
import { summaryLine, terminalProgress } from "../../server/transfer/progress.ts";
import { checkImportFile, exportToFile, importFromFile, TransferRefused } from "../../server/transfer/transfer.ts";
import { type CliCommand, UsageError } from "../command.ts";
import { openExistingDatabase } from "../existing-database.ts";

/** `export` / `import`: the site's data as one file, to move it between databases. */

function fileArgument(positionals: string[] | undefined, usage: string): string {
  const [file, ...extra] = positionals ?? [];
  if (!file || extra.length > 0) throw new UsageError(`Usage: npm run cli -- ${usage}`);
  return path.resolve(file);
}

/** Refusals and faults of the file are the user's to fix: printed as they are, exit code 2. */
async function asUsage<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof TransferRefused || error instanceof DataFileError) throw new UsageError(error.message);
    throw error;
  }
}

export const transferCommands: CliCommand[] = [
  {
    name: "export",
    summary: "Write the site's data (content, settings, subscribers, users) to a JSON Lines file.",
    usage: "export <file.json>",
    options: {},
    positionals: true,
    async run({ config, positionals, output }) {
      const file = fileArgument(positionals, "export <file.json>");
      const started = performance.now();
      const handle = openExistingDatabase(config);
      const progress = terminalProgress(output);
      try {
        const result = await asUsage(() => exportToFile(handle, file, progress));
        progress.finish();
        progress.totals.tables = result.tables;
        const seconds = (performance.now() - started) / 1000;
        output.write(`${summaryLine("Exported", progress.totals, seconds, `to ${file}`)}\n`);
      } finally {
        progress.finish();
        await handle.close();
      }
    },
  },
  {
    name: "import",
    summary: "Load an export into an empty database (--force replaces the content of one that has data).",
    usage: "import <file.json> [--force]",
    options: { force: { type: "boolean" } },
    positionals: true,
    async run({ config, values, positionals, output }) {
      const file = fileArgument(positionals, "import <file.json> [--force]");
      const started = performance.now();
      const handle = openDatabase(config.database);
      const progress = terminalProgress(output);
      try {
        // Checked before the schema is touched: a mistyped name or a wrong file changes nothing.
        await asUsage(() => checkImportFile(file));
        // A new installation's database may be blank: it gets the schema (and defaults)
        // first. One with data at an older schema is backed up before that, as at start.
        const backup = await backupBeforeMigrating(config, handle, { info: () => {} });
        if (backup) output.write(`Backed up the database before migrating: ${backup}\n`);
        await migrateToLatest(handle.db, handle.dialect);
        await seedDefaults(handle.db);
        const result = await asUsage(() => importFromFile(handle, file, { force: values.force === true }, progress));
        progress.finish();
        progress.totals.tables = result.tables;
        const seconds = (performance.now() - started) / 1000;
        output.write(`${summaryLine("Imported", progress.totals, seconds, `from ${file}`)}\n`);
        output.write("A running server shows the imported content after a restart (or `kill -HUP <pid>`).\n");
      } finally {
        progress.finish();
        await handle.close();
      }
    },
  },
];
