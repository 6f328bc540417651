import { mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { IMAGE_TYPES } from "../../server/media/image-type.ts";
import { newImageName, variantName } from "../../server/media/names.ts";
import { IMMUTABLE_CACHE_CONTROL, MEDIA_BUCKET } from "../../server/media/rules.ts";
import { createMediaStorage, imageOriginsBesidesSite } from "../../server/media/storage/index.ts";
import { createLocalStorage } from "../../server/media/storage/local.ts";
import { FileExists, UnsafePath } from "../../server/media/storage/storage.ts";
import { png } from "./images.ts";
import { SITE_ORIGIN, STORAGE_DRIVERS, useStorage } from "./storage-drivers.ts";

describe.each(STORAGE_DRIVERS)("the %s storage driver", (driver) => {
  const fixture = useStorage(driver);

  it("stores, serves, lists and deletes a file", async () => {
    const { storage } = fixture;
    const body = await png(40, 30);
    const { name, stem } = newImageName(IMAGE_TYPES.png);
    const variant = variantName(stem, 480, IMAGE_TYPES.webp);
    await storage.put(name, body, "image/png");
    await storage.put(variant, Buffer.from("webp bytes"), "image/webp");

    const read = await storage.get(name);
    expect(read?.body.equals(body)).toBe(true);
    expect(read?.contentType).toBe("image/png");
    expect(read?.cacheControl).toBe(IMMUTABLE_CACHE_CONTROL);

    const url = storage.url(name);
    expect(url).toContain(`/${MEDIA_BUCKET}/${name}`);
    expect(storage.pathOf(url)).toBe(name);
    const served = await fixture.fetchPublic(url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("cache-control")).toBe(IMMUTABLE_CACHE_CONTROL);
    expect(Buffer.from(await served.arrayBuffer()).equals(body)).toBe(true);

    const listed = await storage.list();
    expect(listed.map((file) => file.path)).toEqual(expect.arrayContaining([name, variant]));
    expect(listed.find((file) => file.path === name)?.bytes).toBe(body.length);

    await storage.delete([name, variant]);
    expect(await storage.get(name)).toBeNull();
    expect((await storage.list()).map((file) => file.path)).not.toContain(name);
    expect((await fixture.fetchPublic(url)).status).toBe(404);
    // Deleting again (a retried delete) is not an error.
    await storage.delete([name, variant]);
  });

  it("refuses paths that are not media names, before touching anything", async () => {
    const { storage } = fixture;
    for (const path of ["../secret.png", "a/b.png", "1732170000000-abcdefghij.svg", "", ".hidden.png"]) {
      await expect(storage.put(path, Buffer.from("x"), "image/png"), path).rejects.toBeInstanceOf(UnsafePath);
      await expect(storage.get(path), path).rejects.toBeInstanceOf(UnsafePath);
      await expect(storage.delete([path]), path).rejects.toBeInstanceOf(UnsafePath);
      expect(() => storage.url(path), path).toThrow(UnsafePath);
    }
  });

  it("reads back only the URLs it writes", () => {
    const { storage } = fixture;
    const { name } = newImageName(IMAGE_TYPES.jpeg);
    const url = storage.url(name);
    expect(storage.pathOf(url)).toBe(name);
    expect(storage.pathOf(`${url}?v=2`)).toBeNull();
    expect(storage.pathOf(url.replace(name, "../bastion.sqlite"))).toBeNull();
    expect(storage.pathOf(`https://elsewhere.example/${MEDIA_BUCKET}/${name}`)).toBeNull();
    expect(storage.pathOf("data:image/png;base64,AAAA")).toBeNull();
  });
});

describe("the local storage driver", () => {
  const fixture = useStorage("local");

  it("never overwrites a stored file", async () => {
    const { storage } = fixture;
    const { name } = newImageName(IMAGE_TYPES.png);
    await storage.put(name, Buffer.from("first"), "image/png");
    await expect(storage.put(name, Buffer.from("second"), "image/png")).rejects.toBeInstanceOf(FileExists);
    expect((await storage.get(name))?.body.toString()).toBe("first");
  });

  it("leaves no temporary file behind when a write fails part way", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "bastion-media-"));
    try {
      const storage = createLocalStorage({ dataDir, bucket: MEDIA_BUCKET, publicOrigin: SITE_ORIGIN });
      const { name } = newImageName(IMAGE_TYPES.png);
      // A write that fails once the file exists, as on a disk that fills up: writeFile
      // takes an iterable as well as a Buffer, and this one breaks off after its first bytes.
      function* breaksOff() {
        yield Buffer.from("the first bytes");
        throw new Error("ENOSPC: no space left on device");
      }
      await expect(storage.put(name, breaksOff() as unknown as Buffer, "image/png")).rejects.toThrow("ENOSPC");
      expect(readdirSync(path.join(dataDir, "media", MEDIA_BUCKET))).toEqual([]);
      expect(await storage.get(name)).toBeNull();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("lists the files without one deleted while it was listing (a backup while an editor deletes)", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "bastion-media-"));
    try {
      const storage = createLocalStorage({ dataDir, bucket: MEDIA_BUCKET, publicOrigin: SITE_ORIGIN });
      const kept = newImageName(IMAGE_TYPES.png).name;
      await storage.put(kept, await png(8, 8), "image/png");
      // A name the folder still lists but whose file is gone when it is looked at: the
      // same state as a file deleted between reading the folder and reading its size.
      const gone = newImageName(IMAGE_TYPES.png).name;
      symlinkSync(path.join(dataDir, "nowhere.png"), path.join(dataDir, "media", MEDIA_BUCKET, gone));
      expect((await storage.list()).map((file) => file.path)).toEqual([kept]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("serves its files under /media/<bucket>/ on the site, relative or absolute", () => {
    const { storage } = fixture;
    const { name } = newImageName(IMAGE_TYPES.gif);
    expect(storage.url(name)).toBe(`/media/${MEDIA_BUCKET}/${name}`);
    expect(storage.pathOf(`${SITE_ORIGIN}/media/${MEDIA_BUCKET}/${name}`)).toBe(name);
    expect(storage.pathOf(`//evil.example/media/${MEDIA_BUCKET}/${name}`)).toBeNull();
    expect(storage.imageOrigin).toBeNull();
  });

  it("answers 404 to names it does not make, and to other buckets", async () => {
    const { name } = newImageName(IMAGE_TYPES.png);
    await fixture.storage.put(name, await png(8, 8), "image/png");
    for (const path of [
      `/media/other-bucket/${name}`,
      `/media/${MEDIA_BUCKET}/..%2F..%2Fbastion.sqlite`,
      `/media/${MEDIA_BUCKET}/%2e%2e%2fauth-secret`,
      `/media/${MEDIA_BUCKET}/${name}.txt`,
    ]) {
      const response = await fixture.fetchPublic(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get("cache-control"), path).toBe("no-store");
    }
  });
});

describe("the S3 storage driver", () => {
  const fixture = useStorage("s3");

  it("writes path-style URLs of the endpoint, and names that origin for the CSP", () => {
    const { storage } = fixture;
    const { name } = newImageName(IMAGE_TYPES.webp);
    const url = new URL(storage.url(name));
    expect(url.pathname).toBe(`/bastion-media/${MEDIA_BUCKET}/${name}`);
    expect(storage.imageOrigin).toBe(url.origin);
  });
});

describe("the configured storage", () => {
  const s3 = {
    bucket: "site-media",
    region: "eu-west-3",
    accessKeyId: "key",
    secretAccessKey: "secret",
    endpoint: undefined as string | undefined,
    publicUrl: undefined as string | undefined,
  };
  const base = { dataDir: "/tmp/bastion-unused", publicOrigin: SITE_ORIGIN, imageOrigins: [] };

  it("is local disk without S3_BUCKET, and adds no image origin to the CSP", () => {
    const storage = createMediaStorage({ ...base, s3: undefined });
    expect(storage.driver).toBe("local");
    expect(imageOriginsBesidesSite({ s3: undefined, imageOrigins: [] })).toEqual([]);
  });

  it("is S3 under S3_PUBLIC_URL (a CDN) when set, whose origin the CSP allows", () => {
    const config = { ...base, s3: { ...s3, publicUrl: "https://cdn.example.com/" } };
    const storage = createMediaStorage(config);
    const { name } = newImageName(IMAGE_TYPES.jpeg);
    expect(storage.driver).toBe("s3");
    expect(storage.url(name)).toBe(`https://cdn.example.com/${MEDIA_BUCKET}/${name}`);
    expect(imageOriginsBesidesSite(config)).toEqual(["https://cdn.example.com"]);
    storage.close();
  });

  it("is S3 at the endpoint's path-style address, or AWS's own, without S3_PUBLIC_URL", () => {
    const { name } = newImageName(IMAGE_TYPES.jpeg);
    const minio = { ...base, s3: { ...s3, endpoint: "https://minio.internal.example:9000" } };
    expect(createMediaStorage(minio).url(name)).toBe(
      `https://minio.internal.example:9000/site-media/${MEDIA_BUCKET}/${name}`,
    );
    expect(imageOriginsBesidesSite(minio)).toEqual(["https://minio.internal.example:9000"]);
    const aws = { ...base, s3 };
    expect(createMediaStorage(aws).url(name)).toBe(
      `https://site-media.s3.eu-west-3.amazonaws.com/${MEDIA_BUCKET}/${name}`,
    );
    expect(imageOriginsBesidesSite(aws)).toEqual(["https://site-media.s3.eu-west-3.amazonaws.com"]);
  });

  it("adds IMAGE_ORIGINS to the storage's origin, each once", () => {
    const config = {
      s3: { ...s3, publicUrl: "https://cdn.example.com/" },
      imageOrigins: ["https://images.example.org", "https://cdn.example.com"],
    };
    expect(imageOriginsBesidesSite(config)).toEqual(["https://cdn.example.com", "https://images.example.org"]);
  });
});
