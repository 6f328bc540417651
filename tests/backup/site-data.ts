import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createUser } from "../../server/auth/users.ts";
import { type Config, loadConfig } from "../../server/config.ts";
import { createChapter } from "../../server/content/chapters.ts";
import { createSection } from "../../server/content/sections.ts";
import type { ContentStore } from "../../server/content/store.ts";
import { createTip } from "../../server/content/tips.ts";
import { type DatabaseHandle, openDatabase } from "../../server/db/connection.ts";
import { prepareDatabase } from "../../server/db/setup.ts";
import { createLogger } from "../../server/logger.ts";
import { createMediaLibrary } from "../../server/media/library.ts";
import { createMediaStorage } from "../../server/media/storage/index.ts";
import { subscribe } from "../../server/newsletter/subscribers.ts";
import { addSuppression } from "../../server/newsletter/suppression.ts";
import { createAuthForDatabase } from "../../server/services.ts";
import { existingTables, readRows } from "../../server/transfer/read-rows.ts";
import { TABLES } from "../../server/transfer/tables.ts";
import { inSnapshot } from "../../server/transfer/transfer.ts";
import { createTestDatabase, type TestDatabase, type TestDialect } from "../helpers/databases.ts";
import { png } from "../media/images.ts";

/**
 * An installation for backup and transfer tests: its own DATA_DIR (media on local disk)
 * and a fresh database of the given dialect, and real data written through the
 * product's own services.
 */

export const logger = createLogger({ level: "silent" });
export const SECRET = "backup-tests-secret-".padEnd(48, "x");

export interface Installation {
  dialect: TestDialect;
  config: Config;
  handle: DatabaseHandle;
  testDb: TestDatabase;
  destroy(): Promise<void>;
}

/**
 * A new installation; `migrated` runs the server's start-up preparation (schema and
 * defaults); `env` adds variables (e.g. S3_* for media in a bucket).
 */
export async function createInstallation(
  dialect: TestDialect,
  migrated = true,
  env: Record<string, string> = {},
): Promise<Installation> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bastion-backup-test-"));
  const testDb = await createTestDatabase(dialect);
  const databaseUrl = dialect === "postgres" ? testDb.url : `file:${path.join(dataDir, "bastion.sqlite")}`;
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    AUTH_SECRET: SECRET,
    LOG_LEVEL: "silent",
    ...env,
  });
  const handle = migrated ? await prepareDatabase(config.database, logger) : openDatabase(config.database);
  return {
    dialect,
    config,
    handle,
    testDb,
    async destroy() {
      await handle.close();
      await testDb.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** An admin with a password, content, subscribers, a suppression and an uploaded image. */
export async function seedSite(site: Installation): Promise<{ userId: string; chapterId: string }> {
  const { config, handle } = site;
  const { auth, close } = createAuthForDatabase(config, handle, logger);
  try {
    const user = await createUser(
      { auth, db: handle.db },
      {
        email: "owner@example.test",
        password: "correct horse battery staple 42",
        name: "Olive Owner",
        role: "admin",
        via: "cli",
      },
    );
    const store: ContentStore = { db: handle.db, actorId: user.id, onChange: async () => {} };
    const chapter = await createChapter(store, { title: "Threat modelling", published: true });
    await createSection(store, { chapterId: chapter.id, type: "text", content: "Start with the assets — «naïve» ✓." });
    await createSection(store, { chapterId: chapter.id, type: "code", content: "nmap -sV host", language: "bash" });
    await createTip(store, { title: "Rotate keys", url: "https://example.test/keys", category: "AWS" });
    const deps = { config: { publicOrigin: config.publicOrigin }, secret: SECRET };
    await subscribe(handle.db, deps, { email: "Reader@Example.test", source: "form", ip: "203.0.113.9" });
    await subscribe(handle.db, deps, { email: "second@example.test", source: "api", ip: "203.0.113.10" });
    await addSuppression(handle.db, { email: "bounced@example.test", reason: "Hard bounce" });
    const storage = createMediaStorage(config);
    try {
      const library = createMediaLibrary({ db: handle.db, storage, logger });
      await library.upload({ bytes: await png(1200, 800), originalName: "diagram.png", alt: "A diagram" }, user.id);
    } finally {
      storage.close();
    }
    return { userId: user.id, chapterId: chapter.id };
  } finally {
    await close();
  }
}

/** Every row of every table, encoded as an export writes it (the same on both databases). */
export async function snapshotTables(
  handle: DatabaseHandle,
  only: (name: string) => boolean = () => true,
): Promise<Record<string, unknown[][]>> {
  return inSnapshot(handle, async (trx) => {
    const present = await existingTables(trx);
    const tables: Record<string, unknown[][]> = {};
    for (const spec of TABLES) {
      if (!present.has(spec.name) || !only(spec.name)) continue;
      const rows: unknown[][] = [];
      for await (const batch of readRows(trx, handle.dialect, spec, Object.keys(spec.columns))) rows.push(...batch);
      tables[spec.name] = rows;
    }
    return tables;
  });
}

/** The stored media files: name → SHA-256 of the bytes. */
export async function mediaFiles(config: Config): Promise<Record<string, string>> {
  const storage = createMediaStorage(config);
  try {
    const files: Record<string, string> = {};
    for (const stored of await storage.list()) {
      const file = await storage.get(stored.path);
      files[stored.path] = createHash("sha256").update(file!.body).digest("hex");
    }
    return files;
  } finally {
    storage.close();
  }
}
