import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { create, extract } from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ArchiveError, type Manifest } from "../../server/backup/archive.ts";
import { type BackupResult, createBackup } from "../../server/backup/backup.ts";
import { restoreBackup } from "../../server/backup/restore.ts";
import { latestSchemaVersion } from "../../server/transfer/schema-version.ts";
import { TransferRefused } from "../../server/transfer/transfer.ts";
import { TEST_DIALECTS, type TestDialect } from "../helpers/databases.ts";
import { createInstallation, type Installation, mediaFiles, seedSite, snapshotTables } from "./site-data.ts";

/** Rewrites a backup: unpack, let `change` edit the files, pack again (a damaged or forged archive). */
function tamper(file: string, change: (directory: string) => void): string {
  const directory = mkdtempSync(path.join(tmpdir(), "bastion-tamper-"));
  extract({ file, cwd: directory, sync: true });
  change(directory);
  const target = path.join(directory, "..", `${path.basename(directory)}.tar.gz`);
  const entries = ["manifest.json", "database", "media"];
  create({ gzip: true, file: target, cwd: directory, sync: true, portable: true }, entries);
  rmSync(directory, { recursive: true, force: true });
  return target;
}

describe.each(TEST_DIALECTS)("backup of a %s installation", (dialect) => {
  let source: Installation;
  let backup: BackupResult;
  let expectedTables: Record<string, unknown[][]>;
  let expectedMedia: Record<string, string>;
  const targets: Installation[] = [];
  const blank = async (targetDialect: TestDialect, migrated = false) => {
    const target = await createInstallation(targetDialect, migrated);
    targets.push(target);
    return target;
  };

  beforeAll(async () => {
    source = await createInstallation(dialect);
    await seedSite(source);
    backup = await createBackup(source.config, source.handle);
    expectedTables = await snapshotTables(source.handle);
    expectedMedia = await mediaFiles(source.config);
  });

  afterAll(async () => {
    for (const target of targets) await target.destroy();
    await source?.destroy();
  });

  it("writes one .tar.gz in DATA_DIR/backups with a manifest of versions, counts and checksums", () => {
    expect(path.dirname(backup.file)).toBe(path.join(source.config.dataDir, "backups"));
    expect(path.basename(backup.file)).toMatch(/^bastion-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.tar\.gz$/);
    const { manifest } = backup;
    expect(manifest).toMatchObject({
      format: "bastion-backup",
      version: 1,
      appVersion: "0.1.0",
      schemaVersion: latestSchemaVersion(),
      database: dialect,
    });
    expect(manifest.tables.chapters).toBe(1);
    expect(manifest.tables.chapter_sections).toBe(2);
    expect(manifest.tables.newsletter_subscribers).toBe(2);
    expect(manifest.tables.user).toBe(1);
    expect(manifest.tables.media).toBe(1);
    // The original and its responsive variants.
    expect(manifest.media.files).toBe(Object.keys(expectedMedia).length);
    expect(manifest.media.files).toBeGreaterThan(1);
    const names = Object.keys(manifest.files);
    expect(names).toContain(dialect === "sqlite" ? "database/bastion.sqlite" : "database/data.jsonl");
    for (const name of Object.keys(expectedMedia)) expect(names).toContain(`media/project-images/${name}`);
    for (const file of Object.values(manifest.files)) expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each(TEST_DIALECTS)("restores into an empty %s installation: equal rows, media byte for byte", async (to) => {
    const target = await blank(to);
    const result = await restoreBackup(target.config, target.handle, backup.file, { force: false });
    expect(result.files).toBe(Object.keys(expectedMedia).length);
    expect(await snapshotTables(target.handle)).toEqual(expectedTables);
    expect(await mediaFiles(target.config)).toEqual(expectedMedia);
  });

  it("restores into a database the server has already prepared (schema and default rows)", async () => {
    const target = await blank(dialect, true);
    await restoreBackup(target.config, target.handle, backup.file, { force: false });
    expect(await snapshotTables(target.handle)).toEqual(expectedTables);
  });

  it("refuses a non-empty installation without --force, and replaces it with --force", async () => {
    const target = await blank(dialect, true);
    await seedSite(target);
    const before = await snapshotTables(target.handle);
    const refused = await restoreBackup(target.config, target.handle, backup.file, { force: false }).catch((e) => e);
    expect(refused).toBeInstanceOf(TransferRefused);
    expect(refused.message).toMatch(
      /^This installation is not empty: the database holds data \(.*\) and \d+ media files are stored\. Restore into an empty one, or add --force to replace everything\.$/,
    );
    expect(await snapshotTables(target.handle)).toEqual(before);

    await restoreBackup(target.config, target.handle, backup.file, { force: true });
    expect(await snapshotTables(target.handle)).toEqual(expectedTables);
    expect(await mediaFiles(target.config)).toEqual(expectedMedia);
  });

  it("refuses an archive whose checksum does not match, before touching anything", async () => {
    const [mediaName] = Object.keys(expectedMedia);
    const damaged = tamper(backup.file, (directory) => {
      const file = path.join(directory, "media/project-images", mediaName!);
      const bytes = readFileSync(file);
      bytes[bytes.length - 1] = (bytes[bytes.length - 1]! + 1) % 256;
      writeFileSync(file, bytes);
    });
    const target = await blank(dialect);
    const refused = await restoreBackup(target.config, target.handle, damaged, { force: false }).catch((e) => e);
    rmSync(damaged);
    expect(refused).toBeInstanceOf(ArchiveError);
    expect(refused.message).toBe(
      `The backup is damaged: the checksum of media/project-images/${mediaName} does not match its manifest.`,
    );
    expect(await target.handle.db.introspection.getTables()).toEqual([]);
    expect(await mediaFiles(target.config)).toEqual({});
  });

  it("refuses a backup from a newer schema version, naming both versions", async () => {
    const forged = tamper(backup.file, (directory) => {
      const file = path.join(directory, "manifest.json");
      const manifest = JSON.parse(readFileSync(file, "utf8")) as Manifest;
      writeFileSync(file, JSON.stringify({ ...manifest, schemaVersion: "9001-from-the-future" }));
    });
    const target = await blank(dialect);
    const refused = await restoreBackup(target.config, target.handle, forged, { force: false }).catch((e) => e);
    rmSync(forged);
    expect(refused).toBeInstanceOf(ArchiveError);
    expect(refused.message).toBe(
      `This backup was made by a newer version of Bastion (schema 9001-from-the-future); this installation has schema ${latestSchemaVersion()}. Upgrade Bastion first.`,
    );
    expect(await target.handle.db.introspection.getTables()).toEqual([]);
  });

  it("refuses a manifest naming a file outside the archive's layout", async () => {
    const forged = tamper(backup.file, (directory) => {
      const file = path.join(directory, "manifest.json");
      const manifest = JSON.parse(readFileSync(file, "utf8")) as Manifest;
      const files = { ...manifest.files, "../../etc/passwd": { bytes: 1, sha256: "0".repeat(64) } };
      writeFileSync(file, JSON.stringify({ ...manifest, files }));
    });
    const target = await blank(dialect);
    const refused = await restoreBackup(target.config, target.handle, forged, { force: false }).catch((e) => e);
    rmSync(forged);
    expect(refused).toBeInstanceOf(ArchiveError);
    expect(refused.message).toBe(
      `${forged} is not a usable Bastion backup: files.../../etc/passwd names a file outside the archive's layout.`,
    );
  });

  it("refuses media that storage would not take, or that its summary does not count, before touching anything", async () => {
    const target = await blank(dialect, true);
    await seedSite(target);
    const tablesBefore = await snapshotTables(target.handle);
    const mediaBefore = await mediaFiles(target.config);
    const forge = (change: (manifest: Manifest, directory: string) => Manifest) =>
      tamper(backup.file, (directory) => {
        const file = path.join(directory, "manifest.json");
        writeFileSync(file, JSON.stringify(change(JSON.parse(readFileSync(file, "utf8")) as Manifest, directory)));
      });
    const notAnImage = forge((manifest, directory) => {
      writeFileSync(path.join(directory, "media/project-images/0.txt"), "x");
      const entry = { bytes: 1, sha256: createHash("sha256").update("x").digest("hex") };
      const media = { ...manifest.media, files: manifest.media.files + 1, bytes: manifest.media.bytes + 1 };
      return { ...manifest, media, files: { ...manifest.files, "media/project-images/0.txt": entry } };
    });
    const otherBucket = forge((manifest) => ({ ...manifest, media: { ...manifest.media, bucket: "other" } }));
    const miscounted = forge((manifest) => ({
      ...manifest,
      media: { ...manifest.media, files: manifest.media.files + 1 },
    }));
    const refusals = [];
    for (const forged of [notAnImage, otherBucket, miscounted]) {
      refusals.push(await restoreBackup(target.config, target.handle, forged, { force: true }).catch((e) => e));
      rmSync(forged);
    }
    for (const refused of refusals) expect(refused).toBeInstanceOf(ArchiveError);
    expect(refusals.map((refused) => refused.message)).toEqual([
      "The backup is damaged: media/project-images/0.txt is not a media file of its bucket project-images.",
      `The backup is damaged: media/project-images/${Object.keys(expectedMedia).sort()[0]} is not a media file of its bucket other.`,
      `The backup is inconsistent: its manifest counts ${backup.manifest.media.files + 1} media files of ${backup.manifest.media.bytes} bytes, and lists ${backup.manifest.media.files} of ${backup.manifest.media.bytes}.`,
    ]);
    expect(await snapshotTables(target.handle)).toEqual(tablesBefore);
    expect(await mediaFiles(target.config)).toEqual(mediaBefore);
  });

  it("refuses an entry its manifest does not list", async () => {
    const padded = tamper(backup.file, (directory) => {
      writeFileSync(path.join(directory, "media/project-images/unlisted.bin"), Buffer.alloc(1024 * 1024));
    });
    const target = await blank(dialect);
    const refused = await restoreBackup(target.config, target.handle, padded, { force: false }).catch((e) => e);
    rmSync(padded);
    expect(refused).toBeInstanceOf(ArchiveError);
    expect(refused.message).toBe(
      "The backup is damaged: media/project-images/unlisted.bin is not listed in its manifest.",
    );
    expect(await target.handle.db.introspection.getTables()).toEqual([]);
  });

  it("refuses to back up a database with no schema, writing nothing", async () => {
    const target = await blank(dialect);
    const refused = await createBackup(target.config, target.handle).catch((e) => e);
    expect(refused).toBeInstanceOf(TransferRefused);
    expect(refused.message).toBe("The database has no schema yet: there is nothing to back up.");
    expect(existsSync(path.join(target.config.dataDir, "backups"))).toBe(false);
  });

  it("removes what backups stopped mid-way left beside it a day or more ago, and nothing else", async () => {
    const directory = path.dirname(backup.file);
    const dayAndMinuteAgo = new Date(Date.now() - 86_460_000);
    const leftovers = {
      staging: ".bastion-backup-Ab12Cd",
      partial: "bastion-scheduled-2026-01-01T03-30-00-000Z.tar.gz.partial",
      recentStaging: ".bastion-backup-Ef34Gh",
      recentPartial: "bastion-2026-11-30T10-00-00-000Z.tar.gz.partial",
      unrelated: "notes.partial",
    };
    mkdirSync(path.join(directory, leftovers.staging, "media"), { recursive: true });
    writeFileSync(path.join(directory, leftovers.staging, "media", "photo.jpg"), "a copy of the media");
    utimesSync(path.join(directory, leftovers.staging), dayAndMinuteAgo, dayAndMinuteAgo);
    mkdirSync(path.join(directory, leftovers.recentStaging));
    for (const name of [leftovers.partial, leftovers.recentPartial, leftovers.unrelated]) {
      writeFileSync(path.join(directory, name), "half an archive");
      if (name !== leftovers.recentPartial) utimesSync(path.join(directory, name), dayAndMinuteAgo, dayAndMinuteAgo);
    }

    const second = await createBackup(source.config, source.handle);
    expect(second.leftoversRemoved.sort()).toEqual([leftovers.staging, leftovers.partial].sort());
    expect(readdirSync(directory).sort()).toEqual(
      [
        path.basename(backup.file),
        path.basename(second.file),
        leftovers.recentStaging,
        leftovers.recentPartial,
        leftovers.unrelated,
      ].sort(),
    );
    rmSync(second.file);
    for (const name of [leftovers.recentStaging, leftovers.recentPartial, leftovers.unrelated])
      rmSync(path.join(directory, name), { recursive: true });
  });

  it("refuses to write over an existing file", async () => {
    const refused = await createBackup(source.config, source.handle, { file: backup.file }).catch((e) => e);
    expect(refused).toBeInstanceOf(TransferRefused);
    expect(refused.message).toBe(`${backup.file} already exists: choose another name or remove it first.`);
  });

  it("refuses a backup whose row counts disagree with its manifest", async () => {
    const forged = tamper(backup.file, (directory) => {
      const file = path.join(directory, "manifest.json");
      const manifest = JSON.parse(readFileSync(file, "utf8")) as Manifest;
      writeFileSync(file, JSON.stringify({ ...manifest, tables: { ...manifest.tables, chapters: 7 } }));
    });
    const target = await blank(dialect);
    const refused = await restoreBackup(target.config, target.handle, forged, { force: false }).catch((e) => e);
    rmSync(forged);
    expect(refused).toBeInstanceOf(ArchiveError);
    expect(refused.message).toBe(
      "The backup is inconsistent: its manifest counts 7 rows in chapters, its database holds 1.",
    );
  });
});
