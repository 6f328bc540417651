import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import express from "express";
import { afterAll, beforeAll } from "vitest";
import { serveLocalMedia } from "../../server/http/media-files.ts";
import { MEDIA_BUCKET } from "../../server/media/rules.ts";
import { createLocalStorage } from "../../server/media/storage/local.ts";
import { createS3Storage } from "../../server/media/storage/s3.ts";
import type { MediaStorage } from "../../server/media/storage/storage.ts";
import { S3_TEST_KEY, type S3TestServer, startS3Server } from "../helpers/s3-server.ts";

/** Both storage drivers, for tests that run on each: local disk in a temporary folder, S3 on s3rver. */
export const STORAGE_DRIVERS = ["local", "s3"] as const;
export type StorageDriver = (typeof STORAGE_DRIVERS)[number];

export const SITE_ORIGIN = "http://bastion.test";

export interface StorageFixture {
  storage: MediaStorage;
  /**
   * Fetches a stored file's URL the way a browser would: from the site's own handler
   * (local driver, served in-process by server/http/media-files.ts) or from the store (S3).
   */
  fetchPublic(url: string): Promise<Response>;
}

/** A fresh storage of the driver for the test file, removed afterwards. */
export function useStorage(driver: StorageDriver): StorageFixture {
  const fixture = {} as StorageFixture;
  let s3: S3TestServer | undefined;
  let dataDir: string | undefined;
  let site: Server | undefined;
  beforeAll(async () => {
    if (driver === "local") {
      dataDir = mkdtempSync(path.join(tmpdir(), "bastion-media-"));
      const storage = createLocalStorage({ dataDir, bucket: MEDIA_BUCKET, publicOrigin: SITE_ORIGIN });
      fixture.storage = storage;
      const app = express();
      app.get("/media/:bucket/:name", serveLocalMedia(storage));
      const listening = app.listen(0, "127.0.0.1");
      site = listening;
      await new Promise((resolve) => listening.once("listening", resolve));
      const base = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
      fixture.fetchPublic = (url) => fetch(new URL(new URL(url, SITE_ORIGIN).pathname, base));
    } else {
      s3 = await startS3Server();
      fixture.storage = createS3Storage({
        endpoint: s3.endpoint,
        s3Bucket: s3.bucket,
        region: "us-east-1",
        accessKeyId: S3_TEST_KEY,
        secretAccessKey: S3_TEST_KEY,
        publicUrl: undefined,
        bucket: MEDIA_BUCKET,
      });
      fixture.fetchPublic = (url) => fetch(url);
    }
  });
  afterAll(async () => {
    site?.close();
    fixture.storage?.close();
    await s3?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  return fixture;
}
