import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBackup } from "../../server/backup/backup.ts";
import { restoreBackup } from "../../server/backup/restore.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { type S3TestServer, startS3Server } from "../helpers/s3-server.ts";
import { createInstallation, type Installation, mediaFiles, seedSite, snapshotTables } from "./site-data.ts";

/** Media in S3 (a real S3-compatible server) travel through backups like files on disk. */
describe.each(TEST_DIALECTS)("backups with media in S3 on %s", (dialect) => {
  const servers: S3TestServer[] = [];
  const sites: Installation[] = [];
  let s3Site: Installation;

  /** An installation with its own bucket (so a restore finds it empty). */
  const withS3 = async (migrated: boolean) => {
    const server = await startS3Server();
    servers.push(server);
    const site = await createInstallation(dialect, migrated, server.env);
    sites.push(site);
    return site;
  };

  beforeAll(async () => {
    s3Site = await withS3(true);
    await seedSite(s3Site);
  });

  afterAll(async () => {
    for (const site of sites) await site.destroy();
    for (const server of servers) await server.close();
  });

  it("backs up the bucket's files and restores them to local disk, byte for byte", async () => {
    expect(s3Site.config.s3).toBeDefined();
    const files = await mediaFiles(s3Site.config);
    expect(Object.keys(files).length).toBeGreaterThan(1);
    const backup = await createBackup(s3Site.config, s3Site.handle);
    expect(backup.manifest.media.files).toBe(Object.keys(files).length);

    const local = await createInstallation(dialect, false);
    sites.push(local);
    expect(local.config.s3).toBeUndefined();
    await restoreBackup(local.config, local.handle, backup.file, { force: false });
    expect(await mediaFiles(local.config)).toEqual(files);
    expect(await snapshotTables(local.handle)).toEqual(await snapshotTables(s3Site.handle));
  });

  it("restores a backup of local files into an empty bucket, and refuses a bucket with files", async () => {
    const local = await createInstallation(dialect);
    sites.push(local);
    await seedSite(local);
    const files = await mediaFiles(local.config);
    const backup = await createBackup(local.config, local.handle);

    const target = await withS3(false);
    await restoreBackup(target.config, target.handle, backup.file, { force: false });
    expect(await mediaFiles(target.config)).toEqual(files);

    const refused = await restoreBackup(s3Site.config, s3Site.handle, backup.file, { force: false }).catch((e) => e);
    expect(refused.message).toMatch(/^This installation is not empty: .* and \d+ media files are stored\./);
  });
});
