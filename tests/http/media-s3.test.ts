import exifr from "exifr";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoredImage } from "../../app/components/media/media-api.ts";
import type { DatabaseHandle } from "../../server/db/connection.ts";
import { IMAGE_DELETED_MESSAGE, IMMUTABLE_CACHE_CONTROL, MEDIA_BUCKET } from "../../server/media/rules.ts";
import { type SiteWithAccounts, signIn, startSiteWithAccounts } from "../helpers/accounts.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { type S3TestServer, startS3Server } from "../helpers/s3-server.ts";
import { jpegWithExif } from "../media/images.ts";
import { header, request } from "./client.ts";
import { upload } from "./media-client.ts";

/**
 * The built server with S3 storage (S3_ENDPOINT, S3_BUCKET and keys pointing at a real
 * S3-compatible server, s3rver, run by this test): uploads land in the bucket, pages
 * link to the store, its origin joins the CSP's img-src, deleting removes the objects.
 * One server, on PostgreSQL when the run has it.
 */

const EDITOR = { email: "sam.storage@example.com", name: "Sam Storage", role: "editor" as const };
const dialect = TEST_DIALECTS.at(-1) ?? "sqlite";

describe(`media in S3 over HTTP (${dialect})`, () => {
  let s3: S3TestServer;
  let site: SiteWithAccounts;
  let database: DatabaseHandle;
  let base: string;
  let editor: string;
  let photo: StoredImage;

  beforeAll(async () => {
    s3 = await startS3Server();
    site = await startSiteWithAccounts({ dialect, accounts: [EDITOR], server: { env: s3.env } });
    base = site.server.url;
    editor = await signIn(base, EDITOR.email);
    database = await site.openDatabase();
  });

  afterAll(async () => {
    await database?.close();
    await site?.stop();
    await s3?.close();
  });

  it("stores an upload and its variants in the bucket, served by the store with their type and for good", async () => {
    const answer = await upload(base, await jpegWithExif(1800, 1200), "photo.jpg", { cookie: editor });
    expect(answer.status).toBe(201);
    photo = answer.json;
    expect(photo.url).toMatch(new RegExp(`^${s3.endpoint}/${s3.bucket}/${MEDIA_BUCKET}/\\d{13}-[a-z0-9]{10}\\.jpg$`));

    for (const url of [photo.url, ...photo.variants.map((variant: { url: string }) => variant.url)]) {
      const served = await fetch(url);
      expect(served.status, url).toBe(200);
      expect(served.headers.get("cache-control")).toBe(IMMUTABLE_CACHE_CONTROL);
      expect(served.headers.get("content-type")).toMatch(/^image\/(jpeg|webp)$/);
    }
    const original = Buffer.from(await (await fetch(photo.url)).arrayBuffer());
    expect(await exifr.parse(original, { tiff: true, exif: true, gps: true })).toBeUndefined();
    // Nothing of it on the site's own disk.
    expect((await request(`${base}/media/${MEDIA_BUCKET}/${photo.url.split("/").pop()}`)).status).toBe(404);
  });

  it("links the chapter page to the store, whose origin the page's CSP allows for images", async () => {
    await database.db
      .insertInto("chapters")
      .values({ id: "chapter-s3", slug: "s3-chapter", title: "Buckets", number: 1, order_index: 0, published: true })
      .execute();
    await database.db
      .insertInto("chapter_sections")
      .values({ id: "section-s3", chapter_id: "chapter-s3", type: "image", content: photo.url, order_index: 0 })
      .execute();
    const response = await request(`${base}/projects/s3-chapter`, { headers: { Accept: "text/html" } });
    expect(response.status).toBe(200);
    expect(header(response, "content-security-policy")).toContain(`img-src 'self' data: blob: ${s3.endpoint};`);
    const html = response.text();
    for (const variant of photo.variants as Array<{ url: string; width: number }>) {
      expect(html).toContain(`${variant.url} ${variant.width}w`);
    }
  });

  it("deletes the objects when the image is deleted by URL", async () => {
    const response = await request(`${base}/api/media?${new URLSearchParams({ url: photo.url, confirmed: "true" })}`, {
      method: "DELETE",
      headers: { Origin: base, Cookie: editor },
    });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.text()).message).toBe(IMAGE_DELETED_MESSAGE);
    for (const url of [photo.url, ...photo.variants.map((variant: { url: string }) => variant.url)]) {
      expect((await fetch(url)).status, url).toBe(404);
    }
  });
});
