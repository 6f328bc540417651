import exifr from "exifr";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoredImage } from "../../app/components/media/media-api.ts";
import type { DatabaseHandle } from "../../server/db/connection.ts";
import { REFUSED_ADDRESS_MESSAGE } from "../../server/media/fetch-image.ts";
import {
  FILE_TOO_LARGE_MESSAGE,
  IMAGE_DELETED_MESSAGE,
  IMAGE_UPLOADED_MESSAGE,
  IMMUTABLE_CACHE_CONTROL,
  INVALID_FILE_TYPE_MESSAGE,
  INVALID_IMAGE_URL_MESSAGE,
  MAX_IMAGE_BYTES,
  MEDIA_BUCKET,
  TOO_MANY_PIXELS_MESSAGE,
  UPLOAD_BODY_LIMIT_BYTES,
} from "../../server/media/rules.ts";
import { type SiteWithAccounts, signIn, startSiteWithAccounts } from "../helpers/accounts.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { animatedGif, bombPng, jpegWithExif, png, polyglots, SVG, TEXT } from "../media/images.ts";
import { header, request } from "./client.ts";
import { answerBeforeBodyEnds, BOUNDARY, multipartBody, upload } from "./media-client.ts";

/**
 * The media API and the public use of images, against the built server with local
 * storage: uploads by session and by API token, the byte checks, the streaming size
 * limit, a decompression bomb, deleting by URL, the URL import's refusals, the files
 * as served, and the chapter page's srcset.
 */

/** An attribute's value in a tag as React renders it (React keeps camelCase names such as srcSet). */
function attribute(tag: string, name: string): string | undefined {
  return new RegExp(` ${name}="([^"]*)"`, "i").exec(tag)?.[1]?.replaceAll("&amp;", "&");
}

const EDITOR = { email: "mia.media@example.com", name: "Mia Media", role: "editor" as const };
const NO_ROLE = { email: "rory.norole@example.com", name: "Rory Norole", role: null };

describe.each(TEST_DIALECTS)("media over HTTP on %s", (dialect) => {
  let site: SiteWithAccounts;
  let database: DatabaseHandle;
  let base: string;
  let editor: string;
  let noRole: string;
  let token: string;
  let photo: StoredImage;

  beforeAll(async () => {
    site = await startSiteWithAccounts({ dialect, accounts: [EDITOR, NO_ROLE] });
    base = site.server.url;
    editor = await signIn(base, EDITOR.email);
    noRole = await signIn(base, NO_ROLE.email);
    const issued = await fetch(`${base}/api/auth/token`, { headers: { Cookie: editor } });
    token = ((await issued.json()) as { token: string }).token;
    database = await site.openDatabase();
  });

  afterAll(async () => {
    await database?.close();
    await site?.stop();
  });

  const mediaRows = async () => (await database.db.selectFrom("media").select("id").execute()).length;
  const get = (path: string, headers: Record<string, string> = {}) => request(`${base}${path}`, { headers });

  it("refuses an anonymous upload with 401, a user without a role with 403, and stores nothing", async () => {
    const image = await png(64, 64);
    const anonymous = await upload(base, image, "a.png");
    expect(anonymous.status).toBe(401);
    expect(typeof anonymous.json.error).toBe("string");
    expect((await upload(base, image, "a.png", { cookie: noRole })).status).toBe(403);
    expect((await upload(base, image, "a.png", { token: "not.a.token" })).status).toBe(401);
    const roleless = await fetch(`${base}/api/auth/token`, { headers: { Cookie: noRole } });
    const rolelessToken = ((await roleless.json()) as { token: string }).token;
    expect((await upload(base, image, "a.png", { token: rolelessToken })).status).toBe(403);
    expect(await mediaRows()).toBe(0);
  });

  it("stores an editor's JPEG and serves it with its type, nosniff and for good, without the photo's EXIF", async () => {
    const answer = await upload(base, await jpegWithExif(2400, 1600), "IMG_0001.jpg", { cookie: editor });
    expect(answer.status).toBe(201);
    photo = answer.json;
    expect(photo).toMatchObject({ width: 1600, height: 2400, mime: "image/jpeg", message: IMAGE_UPLOADED_MESSAGE });
    expect(Object.keys(photo)).toEqual(
      expect.arrayContaining(["id", "url", "width", "height", "mime", "bytes", "variants"]),
    );
    expect(photo.url).toMatch(new RegExp(`^/media/${MEDIA_BUCKET}/\\d{13}-[a-z0-9]{10}\\.jpg$`));

    const served = await get(photo.url);
    expect(served.status).toBe(200);
    expect(header(served, "content-type")).toBe("image/jpeg");
    expect(header(served, "x-content-type-options")).toBe("nosniff");
    expect(header(served, "cache-control")).toBe(IMMUTABLE_CACHE_CONTROL);
    expect(served.body.length).toBe(photo.bytes);
    expect(
      await exifr.parse(served.body, { tiff: true, exif: true, gps: true, xmp: true, iptc: true }),
    ).toBeUndefined();

    for (const variant of photo.variants as Array<{ url: string; mime: string; width: number }>) {
      const file = await get(variant.url);
      expect(file.status, variant.url).toBe(200);
      expect(header(file, "content-type")).toBe(variant.mime);
      expect((await sharp(file.body).metadata()).width).toBe(variant.width);
    }
  });

  it("takes an upload with an API token as Authorization: Bearer", async () => {
    const answer = await upload(base, await png(200, 100), "from-a-script.png", { token }, { alt: "Made by a script" });
    expect(answer.status).toBe(201);
    expect(answer.json).toMatchObject({ mime: "image/png", alt: "Made by a script" });
  });

  it("accepts a PNG named .jpg as a PNG", async () => {
    const answer = await upload(base, await png(300, 150), "photo.jpg", { cookie: editor });
    expect(answer.status).toBe(201);
    expect(answer.json.mime).toBe("image/png");
    expect(answer.json.url.endsWith(".png")).toBe(true);
    expect(header(await get(answer.json.url), "content-type")).toBe("image/png");
  });

  it.each([
    ["a text file named .png", TEXT, "notes.png"],
    ["an SVG", SVG, "logo.svg"],
  ])("refuses %s with the spec's text", async (_name, bytes, filename) => {
    const before = await mediaRows();
    const answer = await upload(base, bytes, filename, { cookie: editor });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe(INVALID_FILE_TYPE_MESSAGE);
    expect(await mediaRows()).toBe(before);
  });

  it("refuses polyglots, an SVG named .png and truncated images, storing nothing", async () => {
    const before = await mediaRows();
    const image = await png(300, 200);
    const jpeg = await sharp(image).jpeg().toBuffer();
    const attacks: Array<[string, Buffer, string]> = [
      ...Object.entries(await polyglots()).map(([name, bytes]): [string, Buffer, string] => [name, bytes, "image.gif"]),
      ["an SVG named .png", SVG, "logo.png"],
      ["a JPEG cut short", jpeg.subarray(0, Math.floor(jpeg.length * 0.9)), "photo.jpg"],
      ["a PNG cut short", image.subarray(0, Math.floor(image.length * 0.6)), "photo.png"],
    ];
    for (const [name, bytes, filename] of attacks) {
      const answer = await upload(base, bytes, filename, { cookie: editor });
      expect([answer.status, answer.json.error], name).toEqual([400, INVALID_FILE_TYPE_MESSAGE]);
    }
    expect(await mediaRows()).toBe(before);
  });

  it("keeps an animated GIF animated", async () => {
    const answer = await upload(base, await animatedGif(800, 400, 4), "spinner.gif", { cookie: editor });
    expect(answer.status).toBe(201);
    const served = await get(answer.json.url);
    const stored = await sharp(served.body, { animated: true }).metadata();
    expect([stored.format, stored.pages]).toEqual(["gif", 4]);
  });

  it("refuses a declared body over the limit at once, before reading it", async () => {
    const answer = await answerBeforeBodyEnds(
      `${base}/api/media`,
      {
        Origin: base,
        Cookie: editor,
        "Content-Type": `multipart/form-data; boundary=${BOUNDARY}`,
        "Content-Length": String(UPLOAD_BODY_LIMIT_BYTES + 1),
      },
      [Buffer.alloc(1024, 0x61)],
    );
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ error: FILE_TOO_LARGE_MESSAGE });
  });

  it("refuses 5 MB + 1 byte of streamed file while the body is still arriving", async () => {
    const before = await mediaRows();
    const head = multipartBody(Buffer.alloc(0), "big.jpg").subarray(0, -`\r\n--${BOUNDARY}--\r\n`.length);
    // The body never ends: the answer can only come from the count of the file's bytes.
    const answer = await answerBeforeBodyEnds(
      `${base}/api/media`,
      {
        Origin: base,
        Cookie: editor,
        "Content-Type": `multipart/form-data; boundary=${BOUNDARY}`,
        "Transfer-Encoding": "chunked",
      },
      [head, Buffer.alloc(MAX_IMAGE_BYTES + 1, 0xff)],
    );
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe("close");
    expect(JSON.parse(answer.body)).toEqual({ error: FILE_TOO_LARGE_MESSAGE });
    expect(await mediaRows()).toBe(before);
  });

  it("refuses a decompression bomb with a clear message while /healthz keeps answering", async () => {
    const bomb = bombPng(30_000, 30_000);
    const started = performance.now();
    const [answer, health] = await Promise.all([
      upload(base, bomb, "bomb.png", { cookie: editor }),
      (async () => {
        const response = await get("/healthz");
        return { status: response.status, ms: performance.now() - started };
      })(),
    ]);
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe(TOO_MANY_PIXELS_MESSAGE);
    expect(health.status).toBe(200);
    expect(health.ms).toBeLessThan(2000);
    expect((await get("/healthz")).status).toBe(200);
  });

  describe("on the public chapter page", () => {
    let slug: string;

    beforeAll(async () => {
      // Written straight to the database before any page was read, as the content editor would.
      slug = "media-chapter";
      await database.db
        .insertInto("chapters")
        .values({ id: "chapter-media", slug, title: "Imaging the lab", number: 1, order_index: 0, published: true })
        .execute();
      await database.db
        .insertInto("chapter_sections")
        .values([
          {
            id: "section-photo",
            chapter_id: "chapter-media",
            type: "image",
            content: photo.url,
            caption: "The rack",
            alt: "Server rack, front view",
            order_index: 0,
          },
          { id: "section-text", chapter_id: "chapter-media", type: "text", content: "Some words.", order_index: 1 },
          {
            id: "section-again",
            chapter_id: "chapter-media",
            type: "image",
            content: photo.url,
            caption: "Again",
            order_index: 2,
          },
        ])
        .execute();
    });

    it("uses the variants in srcset with sizes, width and height, the section's alt, lazy below the first", async () => {
      const response = await get(`/projects/${slug}`, { Accept: "text/html" });
      expect(response.status).toBe(200);
      const html = response.text();
      const variants = photo.variants as Array<{ url: string; width: number; mime: string }>;
      const jpegSet = [...variants.filter((variant) => variant.mime === "image/jpeg"), photo]
        .map((variant) => `${variant.url} ${variant.width}w`)
        .join(", ");
      const webpSet = variants
        .filter((variant) => variant.mime === "image/webp")
        .map((variant) => `${variant.url} ${variant.width}w`)
        .join(", ");

      // The figures' images (each lightbox's template holds one more, without loading).
      const images = [...html.matchAll(/<img [^>]*>/g)]
        .map((match) => match[0])
        .filter((tag) => tag.includes(photo.url) && tag.includes("loading="));
      expect(images).toHaveLength(2);
      for (const tag of images) {
        expect(attribute(tag, "srcset")).toBe(jpegSet);
        expect(attribute(tag, "sizes")).toBe("(min-width: 52rem) 48rem, calc(100vw - 2rem)");
        expect([attribute(tag, "width"), attribute(tag, "height")]).toEqual(["1600", "2400"]);
      }
      expect(attribute(images[0] as string, "alt")).toBe("Server rack, front view");
      expect(attribute(images[0] as string, "loading")).toBe("eager");
      // No alt of its own, none in the library: the caption.
      expect(attribute(images[1] as string, "alt")).toBe("Again");
      expect(attribute(images[1] as string, "loading")).toBe("lazy");
      const sources = [...html.matchAll(/<source [^>]*>/g)].map((match) => match[0]);
      expect(sources.map((tag) => [attribute(tag, "type"), attribute(tag, "srcset")])).toContainEqual([
        "image/webp",
        webpSet,
      ]);
      // Our own images only: the policy needs no other origin.
      expect(header(response, "content-security-policy")).toContain("img-src 'self' data: blob:;");
    });

    it("lists the image with the sections using it", async () => {
      const response = await get("/api/media", { Cookie: editor });
      expect(response.status).toBe(200);
      const { media } = JSON.parse(response.text()) as { media: Array<{ id: string; usage: unknown }> };
      expect(media.find((item) => item.id === photo.id)?.usage).toEqual([
        { chapterId: "chapter-media", chapterTitle: "Imaging the lab", sectionId: "section-photo" },
        { chapterId: "chapter-media", chapterTitle: "Imaging the lab", sectionId: "section-again" },
      ]);
      expect((await get("/api/media")).status).toBe(401);
    });

    it("deletes by URL: the bucket name is required, an image in use needs confirming, then it answers 404", async () => {
      const remove = (query: string) =>
        request(`${base}/api/media?${query}`, { method: "DELETE", headers: { Origin: base, Cookie: editor } });
      const name = photo.url.split("/").pop();

      const invalid = await remove(new URLSearchParams({ url: `https://cdn.example.com/other/${name}` }).toString());
      expect(invalid.status).toBe(400);
      expect(JSON.parse(invalid.text()).error).toBe(INVALID_IMAGE_URL_MESSAGE);

      const inUse = await remove(new URLSearchParams({ url: photo.url }).toString());
      expect(inUse.status).toBe(409);
      expect(JSON.parse(inUse.text()).usage).toHaveLength(2);
      expect((await get(photo.url)).status).toBe(200);

      const deleted = await remove(new URLSearchParams({ url: `${base}${photo.url}`, confirmed: "true" }).toString());
      expect(deleted.status).toBe(200);
      expect(JSON.parse(deleted.text())).toMatchObject({ message: IMAGE_DELETED_MESSAGE, id: photo.id });
      expect((await get(photo.url)).status).toBe(404);
      for (const variant of photo.variants as Array<{ url: string }>) expect((await get(variant.url)).status).toBe(404);

      // The page is rendered afresh: its sections of the deleted image show nothing, not a broken image.
      const html = (await get(`/projects/${slug}`, { Accept: "text/html" })).text();
      expect(html).not.toContain(photo.url);
      expect(html.toLowerCase()).not.toContain("srcset=");
    });
  });

  it("the URL import refuses loopback and the metadata address", async () => {
    const importUrl = (url: string) =>
      request(`${base}/api/media/import`, {
        method: "POST",
        headers: { Origin: base, Cookie: editor, "Content-Type": "application/json" },
        body: JSON.stringify({ url }),
      });
    const before = await mediaRows();
    for (const url of [`http://127.0.0.1:${site.server.port}/healthz`, "http://169.254.169.254/latest/meta-data/"]) {
      const answer = await importUrl(url);
      expect(answer.status, url).toBe(400);
      expect(JSON.parse(answer.text()).error).toBe(REFUSED_ADDRESS_MESSAGE);
    }
    expect(await mediaRows()).toBe(before);
  });

  it("serves no file outside the bucket's folder", async () => {
    for (const path of [
      `/media/${MEDIA_BUCKET}/..%2F..%2Fbastion.sqlite`,
      `/media/${MEDIA_BUCKET}/..%2Fauth-secret`,
      "/media/other/1732170000000-abcdefghij.png",
      `/media/${MEDIA_BUCKET}/1732170000000-abcdefghij.png`,
    ]) {
      expect((await get(path)).status, path).toBe(404);
    }
  });
});
