import exifr from "exifr";
import { describe, expect, it } from "vitest";
import { Conflict, Invalid, NotFound } from "../../server/errors.ts";
import { MediaInUse } from "../../server/media/library.ts";
import {
  IMMUTABLE_CACHE_CONTROL,
  INVALID_FILE_TYPE_MESSAGE,
  INVALID_IMAGE_URL_MESSAGE,
  MEDIA_BUCKET,
} from "../../server/media/rules.ts";
import type { MediaStorage } from "../../server/media/storage/storage.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { jpegWithExif, png, SVG, TEXT } from "./images.ts";
import { ACTOR_ID, chapterShowing, useLibrary } from "./library-fixture.ts";
import { STORAGE_DRIVERS } from "./storage-drivers.ts";

async function refusal(work: Promise<unknown>): Promise<Error> {
  return work.then(
    () => {
      throw new Error("expected a refusal");
    },
    (error: Error) => error,
  );
}

const cases = TEST_DIALECTS.flatMap((dialect) => STORAGE_DRIVERS.map((driver) => [dialect, driver] as const));

describe.each(cases)("the media library on %s with %s storage", (dialect, driver) => {
  const f = useLibrary(dialect, driver);
  const db = () => f.handle.db;
  const storedPaths = async () => (await f.storage.list()).map((file) => file.path);
  const mediaRows = async () => (await db().selectFrom("media").select("id").execute()).length;

  it("stores an upload with its variants, served without any of the photo's EXIF", async () => {
    const item = await f.library.upload(
      { bytes: await jpegWithExif(2000, 1500), originalName: "IMG_2041.JPG", alt: " The lab bench " },
      ACTOR_ID,
    );
    expect(item).toMatchObject({
      width: 1500,
      height: 2000,
      mime: "image/jpeg",
      alt: "The lab bench",
      originalName: "IMG_2041.JPG",
      sourceUrl: null,
      createdBy: ACTOR_ID,
      revision: 1,
    });
    expect(item.url).toMatch(new RegExp(`/${MEDIA_BUCKET}/\\d{13}-[a-z0-9]{10}\\.jpg$`));
    expect(item.variants.map((variant) => [variant.mime, variant.width])).toEqual([
      ["image/webp", 480],
      ["image/webp", 960],
      ["image/jpeg", 480],
      ["image/jpeg", 960],
    ]);

    const row = await db().selectFrom("media").selectAll().where("id", "=", item.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ bucket: MEDIA_BUCKET, mime: "image/jpeg", bytes: item.bytes, width: 1500 });
    expect(row.variants).toHaveLength(4);
    expect(await storedPaths()).toEqual(
      expect.arrayContaining([row.path, ...row.variants.map((variant) => variant.path)]),
    );

    for (const url of [item.url, ...item.variants.map((variant) => variant.url)]) {
      const served = await f.fetchPublic(url);
      expect(served.status, url).toBe(200);
      expect(served.headers.get("cache-control")).toBe(IMMUTABLE_CACHE_CONTROL);
      const bytes = Buffer.from(await served.arrayBuffer());
      expect(bytes.length).toBeGreaterThan(0);
      if (url.endsWith(".jpg")) {
        expect(served.headers.get("content-type")).toBe("image/jpeg");
        expect(await exifr.parse(bytes, { tiff: true, exif: true, gps: true, xmp: true, iptc: true })).toBeUndefined();
      }
    }

    const audit = await db().selectFrom("audit_log").selectAll().where("entity_id", "=", item.id).execute();
    expect(audit.map((entry) => [entry.action, entry.user_id])).toEqual([["media.uploaded", ACTOR_ID]]);
  });

  it("accepts a PNG named .jpg as a PNG", async () => {
    const item = await f.library.upload({ bytes: await png(300, 200), originalName: "holiday.jpg" }, ACTOR_ID);
    expect(item).toMatchObject({ mime: "image/png", originalName: "holiday.jpg", width: 300, height: 200 });
    expect(item.url.endsWith(".png")).toBe(true);
  });

  it.each([
    ["a text file named .png", TEXT, "notes.png"],
    ["an SVG", SVG, "logo.svg"],
  ])("refuses %s with the spec's text and stores nothing", async (_name, bytes, originalName) => {
    const [files, rows] = [await storedPaths(), await mediaRows()];
    const error = await refusal(f.library.upload({ bytes, originalName }, ACTOR_ID));
    expect(error).toBeInstanceOf(Invalid);
    expect(error.message).toBe(INVALID_FILE_TYPE_MESSAGE);
    expect(await storedPaths()).toEqual(files);
    expect(await mediaRows()).toBe(rows);
  });

  it("removes the files already written when storing fails midway", async () => {
    let puts = 0;
    const failing: MediaStorage = {
      ...f.storage,
      put: async (path, body, type) => {
        if (++puts === 3) throw new Error("disk full");
        await f.storage.put(path, body, type);
      },
    };
    const files = await storedPaths();
    const rows = await mediaRows();
    const error = await refusal(f.openLibrary({ storage: failing }).upload({ bytes: await png(1200, 600) }, ACTOR_ID));
    expect(error.message).toBe("disk full");
    expect(puts).toBeGreaterThan(3);
    expect(await storedPaths()).toEqual(files);
    expect(await mediaRows()).toBe(rows);
  });

  it("lists images newest first with the chapter sections using them", async () => {
    const used = await f.library.upload({ bytes: await png(1000, 500) }, ACTOR_ID);
    const unused = await f.library.upload({ bytes: await png(200, 100) }, ACTOR_ID);
    const { chapterId, sectionIds } = await chapterShowing(db(), `Listing ${driver}`, [
      { url: used.url },
      // A variant's URL pasted into a section uses the image too.
      { url: used.variants[0]!.url },
      { url: "https://elsewhere.example/project-images/1732170000000-abcdefghij.png" },
    ]);

    const listed = await f.library.list();
    expect(listed[0]?.id).toBe(unused.id);
    expect(listed[1]?.id).toBe(used.id);
    const title = `Listing ${driver}`;
    expect(listed[1]?.usage).toEqual([
      { chapterId, chapterTitle: title, sectionId: sectionIds[0] },
      { chapterId, chapterTitle: title, sectionId: sectionIds[1] },
    ]);
    expect(listed[0]?.usage).toEqual([]);
    expect((await f.library.get(used.id)).usage).toHaveLength(2);
  });

  it("changes the alt text at the revision it was read at, and refuses a stale one", async () => {
    const item = await f.library.upload({ bytes: await png(100, 100) }, ACTOR_ID);
    const before = f.changes();
    const changed = await f.library.updateAlt({ id: item.id, alt: "Router front panel", revision: 1 }, ACTOR_ID);
    expect(changed).toMatchObject({ alt: "Router front panel", revision: 2 });
    expect(f.changes()).toBe(before + 1);

    const stale = await refusal(f.library.updateAlt({ id: item.id, alt: "Overwritten", revision: 1 }, ACTOR_ID));
    expect(stale).toBeInstanceOf(Conflict);
    expect((await f.library.get(item.id)).alt).toBe("Router front panel");
    expect(await refusal(f.library.updateAlt({ id: "media-missing", alt: "x", revision: 1 }, ACTOR_ID))).toBeInstanceOf(
      NotFound,
    );
    const tooLong = await refusal(f.library.updateAlt({ id: item.id, alt: "x".repeat(501), revision: 2 }, ACTOR_ID));
    expect((tooLong as Invalid).fields.alt).toMatch(/at most 500/);
    // An empty alt clears it.
    expect((await f.library.updateAlt({ id: item.id, alt: "  ", revision: 2 }, ACTOR_ID)).alt).toBeNull();
  });

  it("deletes an image in use only when the caller confirms, and says where it is used", async () => {
    const item = await f.library.upload({ bytes: await png(1000, 500) }, ACTOR_ID);
    const { chapterId, sectionIds } = await chapterShowing(db(), `In use ${driver}`, [{ url: item.url }]);

    const refused = await refusal(f.library.remove({ id: item.id }, ACTOR_ID));
    expect(refused).toBeInstanceOf(MediaInUse);
    expect((refused as MediaInUse).status).toBe(409);
    expect((refused as MediaInUse).usage).toEqual([
      { chapterId, chapterTitle: `In use ${driver}`, sectionId: sectionIds[0] },
    ]);
    expect((await f.fetchPublic(item.url)).status).toBe(200);

    // A confirmation that named other sections (the image came into use since) is refused again.
    const stale = await refusal(
      f.library.remove({ id: item.id, confirmed: true, confirmedSections: "section-seen-before" }, ACTOR_ID),
    );
    expect(stale).toBeInstanceOf(MediaInUse);
    expect((await f.fetchPublic(item.url)).status).toBe(200);

    const before = f.changes();
    const { deleted, usage } = await f.library.remove(
      { id: item.id, confirmed: true, confirmedSections: sectionIds.join(",") },
      ACTOR_ID,
    );
    expect(deleted.id).toBe(item.id);
    expect(usage).toHaveLength(1);
    expect(f.changes()).toBe(before + 1);
    for (const url of [item.url, ...item.variants.map((variant) => variant.url)]) {
      expect((await f.fetchPublic(url)).status, url).toBe(404);
    }
    expect(await refusal(f.library.get(item.id))).toBeInstanceOf(NotFound);
    const audit = await db().selectFrom("audit_log").select("action").where("entity_id", "=", item.id).execute();
    expect(audit.map((entry) => entry.action).sort()).toEqual(["media.deleted", "media.uploaded"]);
  });

  it("deletes by URL: the URL must contain the bucket name, a variant's URL names its image", async () => {
    const item = await f.library.upload({ bytes: await png(1000, 500) }, ACTOR_ID);
    const name = item.url.slice(item.url.lastIndexOf("/") + 1);

    for (const url of [`https://cdn.example.com/other-bucket/${name}`, name, "not a url"]) {
      const error = await refusal(f.library.removeByUrl({ url }, ACTOR_ID));
      expect(error, url).toBeInstanceOf(Invalid);
      expect(error.message).toBe(INVALID_IMAGE_URL_MESSAGE);
    }
    expect(await refusal(f.library.removeByUrl({ url: `/${MEDIA_BUCKET}/../../etc/passwd` }, ACTOR_ID))).toHaveProperty(
      "message",
      INVALID_IMAGE_URL_MESSAGE,
    );
    const unknown = `/media/${MEDIA_BUCKET}/1732170000000-zzzzzzzzzz.png`;
    expect(await refusal(f.library.removeByUrl({ url: unknown }, ACTOR_ID))).toBeInstanceOf(NotFound);

    const { deleted } = await f.library.removeByUrl({ url: item.variants[1]!.url }, ACTOR_ID);
    expect(deleted.id).toBe(item.id);
    expect((await f.fetchPublic(item.url)).status).toBe(404);
  });

  it("gives the reader the dimensions, srcsets and alt text of its images", async () => {
    const photo = await f.library.upload({ bytes: await png(2000, 1000), alt: "Library alt" }, ACTOR_ID);
    const small = await f.library.upload({ bytes: await png(300, 150) }, ACTOR_ID);
    const external = "https://elsewhere.example/pic.png";
    const images = await f.library.describeImages([photo.url, small.url, external, "data:image/png;base64,AAAA"]);

    expect([...images.keys()]).toEqual([photo.url, small.url]);
    const urlOf = (width: number, mime: string) =>
      photo.variants.find((variant) => variant.width === width && variant.mime === mime)?.url;
    expect(images.get(photo.url)).toEqual({
      alt: "Library alt",
      responsive: {
        width: 2000,
        height: 1000,
        srcSet: `${urlOf(480, "image/png")} 480w, ${urlOf(960, "image/png")} 960w, ${urlOf(1600, "image/png")} 1600w, ${photo.url} 2000w`,
        webpSrcSet: `${urlOf(480, "image/webp")} 480w, ${urlOf(960, "image/webp")} 960w, ${urlOf(1600, "image/webp")} 1600w`,
      },
    });
    expect(images.get(small.url)).toEqual({
      alt: null,
      responsive: { width: 300, height: 150, srcSet: `${small.url} 300w`, webpSrcSet: null },
    });
    expect(await f.library.describeImages([])).toEqual(new Map());
  });

  it("tells the reader which library URLs name an image deleted since: null, for their sections to be left out", async () => {
    const kept = await f.library.upload({ bytes: await png(1200, 600) }, ACTOR_ID);
    const gone = await f.library.upload({ bytes: await png(1200, 600) }, ACTOR_ID);
    await f.library.removeByUrl({ url: gone.url, confirmed: true }, ACTOR_ID);
    const keptVariant = kept.variants[0]!.url;
    const goneVariant = gone.variants[0]!.url;
    const images = await f.library.describeImages([kept.url, keptVariant, gone.url, goneVariant]);
    expect(images.get(kept.url)).toMatchObject({ responsive: { width: 1200 } });
    // A variant of a kept image is shown as it is (not described, not refused).
    expect(images.has(keptVariant)).toBe(false);
    expect(images.get(gone.url)).toBeNull();
    expect(images.get(goneVariant)).toBeNull();
  });
});
