import { loadConfig } from "../../server/config.ts";
import { createChapter } from "../../server/content/chapters.ts";
import { openDatabase } from "../../server/db/connection.ts";
import { subscribe } from "../../server/newsletter/subscribers.ts";

/**
 * Another process writing to the database the way the server does (one transaction
 * per change: a published chapter with its notification and audit row, a subscriber
 * with the confirmation email in the outbox), until SIGTERM. It prints "wrote N" after
 * each change, so the test knows writes went on while it took a backup.
 */

const config = loadConfig(process.env);
const handle = openDatabase(config.database);
const store = { db: handle.db, actorId: process.env.WRITER_USER_ID ?? null, onChange: () => {} };
const deps = { config: { publicOrigin: config.publicOrigin }, secret: "concurrent-writer-secret".padEnd(40, "x") };
let stopping = false;
process.on("SIGTERM", () => {
  stopping = true;
});

let written = 0;
while (!stopping) {
  written++;
  await createChapter(store, { title: `Written during the backup ${written}`, published: true });
  await subscribe(handle.db, deps, { email: `writer-${written}@example.test`, source: "api", ip: "198.51.100.7" });
  process.stdout.write(`wrote ${written}\n`);
  // node:sqlite answers synchronously: without a turn of the event loop, neither the
  // output nor SIGTERM would ever get through.
  await new Promise((resolve) => setImmediate(resolve));
}
await handle.close();
