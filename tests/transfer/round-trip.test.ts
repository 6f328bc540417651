import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, deleteUser } from "../../server/auth/users.ts";
import { type BackupResult, createBackup } from "../../server/backup/backup.ts";
import { restoreBackup } from "../../server/backup/restore.ts";
import { createChapter } from "../../server/content/chapters.ts";
import { createSection } from "../../server/content/sections.ts";
import { createAuthForDatabase } from "../../server/services.ts";
import { EXPORTED_TABLES } from "../../server/transfer/tables.ts";
import { exportToFile, importFromFile } from "../../server/transfer/transfer.ts";
import { createInstallation, type Installation, logger, seedSite, snapshotTables } from "../backup/site-data.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";

/**
 * Realistic data through export/import and backup/restore, into either database: text
 * with line and paragraph separators (U+2028, U+2029: JSON leaves them unescaped, and
 * some line readers end a line there), a long section, and the audit rows of a user
 * deleted since, whose user_id names no user any more.
 */

const exported = new Set(EXPORTED_TABLES.map((spec) => spec.name));
const onlyExported = (name: string) => exported.has(name);
const folder = mkdtempSync(path.join(tmpdir(), "bastion-round-trip-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const TITLE = "Ünïcødé\u2028second line 🦊 «quoted»";
const LONG_TEXT = `${"é🦊 paragraph\u2029".repeat(12_000)}\r\nlast\rline`;

describe.each(TEST_DIALECTS)("realistic data from %s", (from) => {
  const sites: Installation[] = [];
  const installation = async (dialect: (typeof TEST_DIALECTS)[number], migrated = true) => {
    const created = await createInstallation(dialect, migrated);
    sites.push(created);
    return created;
  };
  let source: Installation;
  let editorId: string;
  let exportFile: string;
  let backup: BackupResult;
  let expected: Record<string, unknown[][]>;

  beforeAll(async () => {
    source = await installation(from);
    const { userId } = await seedSite(source);
    const { auth, close } = createAuthForDatabase(source.config, source.handle, logger);
    try {
      const services = { auth, db: source.handle.db };
      const editor = await createUser(services, {
        email: "editor@example.test",
        password: "correct horse battery staple 43",
        name: "Élodie 🦊",
        role: "editor",
        via: "cli",
      });
      editorId = editor.id;
      const store = { db: source.handle.db, actorId: editor.id, onChange: async () => {} };
      const chapter = await createChapter(store, { title: TITLE, published: false });
      await createSection(store, { chapterId: chapter.id, type: "text", content: LONG_TEXT });
      await deleteUser(services, { userId: editor.id, actorId: userId });
    } finally {
      await close();
    }
    expected = await snapshotTables(source.handle);
    exportFile = path.join(folder, `${from}.json`);
    await exportToFile(source.handle, exportFile);
    backup = await createBackup(source.config, source.handle, { file: path.join(folder, `${from}.tar.gz`) });
  });

  afterAll(async () => {
    for (const site of sites) await site.destroy();
  });

  /** The deleted editor's audit rows, and the row of their deletion naming their email. */
  const checkAudit = (tables: Record<string, unknown[][]>) => {
    const audit = tables.audit_log!;
    expect(audit.filter((row) => row.includes(editorId)).length).toBeGreaterThan(1);
    const deleted = audit.find((row) => row.includes("user.deleted"));
    expect(deleted).toContainEqual({ email: "editor@example.test", role: "editor" });
    expect(tables.user!.some((row) => row.includes(editorId))).toBe(false);
    expect(tables.chapters!.some((row) => row.includes(TITLE))).toBe(true);
    expect(tables.chapter_sections!.some((row) => row.includes(LONG_TEXT))).toBe(true);
  };

  it.each(TEST_DIALECTS)("imports into %s as it was exported", async (to) => {
    const target = await installation(to);
    await importFromFile(target.handle, exportFile, { force: false });
    const imported = await snapshotTables(target.handle, onlyExported);
    checkAudit(imported);
    expect(imported).toEqual(await snapshotTables(source.handle, onlyExported));
  });

  it.each(TEST_DIALECTS)("restores into a blank %s database as it was backed up", async (to) => {
    const target = await installation(to, false);
    await restoreBackup(target.config, target.handle, backup.file, { force: false });
    const restored = await snapshotTables(target.handle);
    checkAudit(restored);
    expect(restored).toEqual(expected);
  });
});
