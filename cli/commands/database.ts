import { backupBeforeMigrating } from "../../server/backup/pre-migration.ts";
import { openDatabase } from "../../server/db/connection.ts";
import { migrateToLatest } from "../../server/db/migrate.ts";
import type { CliCommand } from "../command.ts";

export const databaseCommands: CliCommand[] = [
  {
    name: "db:migrate",
    summary: "Apply pending database migrations (they also run at every start).",
    usage: "db:migrate",
    options: {},
    async run({ config, output }) {
      const handle = openDatabase(config.database);
      try {
        // A database with data gets a backup before its schema changes (DATA_DIR/backups).
        const backup = await backupBeforeMigrating(config, handle, { info: () => {} });
        if (backup) output.write(`Backed up the database before migrating: ${backup}\n`);
        const applied = await migrateToLatest(handle.db, handle.dialect);
        output.write(
          applied.length === 0
            ? `The ${handle.dialect} database is up to date.\n`
            : `Applied ${applied.length} migration(s) to the ${handle.dialect} database: ${applied.join(", ")}\n`,
        );
      } finally {
        await handle.close();
      }
    },
  },
];
