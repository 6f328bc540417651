import { availableParallelism } from "node:os";
import type { Kysely } from "kysely";
import type { Config } from "../config.ts";
import type { Database, MediaVariant } from "../db/schema.ts";
import { Conflict, Invalid } from "../errors.ts";
import { newId } from "../ids.ts";
import type { Logger } from "../logger.ts";
import { parseInput } from "../validation.ts";
import { type FetchImageOptions, fetchImage } from "./fetch-image.ts";
import { altChangeInput, importInput, removeByUrlInput, removeInput, uploadInput } from "./inputs.ts";
import { type MediaItem, type MediaLibraryItem, toMediaItem } from "./media-item.ts";
import { isImageName, newImageName, stemOf, variantName } from "./names.ts";
import { processImage } from "./process-image.ts";
import { createProcessingSlots } from "./processing-slots.ts";
import { describeImages } from "./reader-images.ts";
import {
  deleteMediaRecord,
  findMedia,
  findMediaByStem,
  insertMedia,
  listMedia,
  type MediaRecord,
  updateMediaAlt,
} from "./records.ts";
import { INVALID_IMAGE_URL_MESSAGE } from "./rules.ts";
import { createMediaStorage } from "./storage/index.ts";
import type { MediaStorage } from "./storage/storage.ts";
import { findUsage, type MediaUsage } from "./usage.ts";

/**
 * The media library: images in, images listed with where they are used, alt text
 * changed, images deleted (only with confirmation while a chapter shows them).
 * Routes and admin screens call these; each checks its input itself.
 */

export interface MediaLibraryOptions {
  db: Kysely<Database>;
  storage: MediaStorage;
  logger: Logger;
  /** Published pages show media (srcset, alt): called after a change to an image, e.g. content.invalidate. */
  onChange?: () => Promise<void>;
  /** For tests of the URL import against local servers. */
  fetchOptions?: FetchImageOptions;
}

/** Deleting an image that chapter sections still show, without confirming. */
export class MediaInUse extends Conflict {
  readonly usage: MediaUsage[];
  constructor(usage: MediaUsage[]) {
    const sections = usage.length === 1 ? "1 chapter section" : `${usage.length} chapter sections`;
    super(`This image is used in ${sections}. Confirm to delete it anyway.`);
    this.usage = usage;
  }
}

export type MediaLibrary = ReturnType<typeof createMediaLibrary>;

const libraries = new WeakMap<object, MediaLibrary>();

/**
 * The process's media library, made on first use from the long-lived services, and
 * the one routes and admin screens call. It is made here, on the routes' side, and not
 * at start-up in server/services.ts: the server bundle holds its own copy of every
 * module, and errors thrown by the other copy would not be instances of the classes
 * the routes check (AppError, MediaInUse).
 */
export function mediaLibraryOf(services: {
  db: Kysely<Database>;
  config: Pick<Config, "s3" | "dataDir" | "publicOrigin">;
  logger: Logger;
  content: { invalidate(): Promise<void> };
}): MediaLibrary {
  let library = libraries.get(services);
  if (!library) {
    library = createMediaLibrary({
      db: services.db,
      storage: createMediaStorage(services.config),
      logger: services.logger,
      // Pages show images' srcsets and alt text: a change re-renders them.
      onChange: () => services.content.invalidate(),
    });
    libraries.set(services, library);
  }
  return library;
}

/**
 * The last path segment of an imported image's URL stands for the file's name, as an
 * upload's would, and reads as a browser shows it ("café au lait.png", not
 * "caf%C3%A9%20au%20lait.png"); one that cannot be decoded, or would decode to a
 * control character (which no name holds, and PostgreSQL refuses NUL), stays as written.
 */
function nameInUrl(url: string): string {
  const segment = new URL(url).pathname.split("/").pop() ?? "";
  try {
    const decoded = decodeURIComponent(segment);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is looked for.
    return /[\u0000-\u001f\u007f]/.test(decoded) ? segment : decoded;
  } catch {
    return segment;
  }
}

export function createMediaLibrary(options: MediaLibraryOptions) {
  const { db, storage, logger } = options;
  const onChange = options.onChange ?? (async () => {});
  // One image at a time per core the pages can spare (at least one).
  const runProcessing = createProcessingSlots(Math.max(1, availableParallelism() - 1));

  /** Re-encodes, stores every file, then records the image; files of a failed attempt are removed again. */
  async function store(
    bytes: Buffer,
    details: { originalName: string | null; alt: string | null; sourceUrl: string | null },
    actorId: string | null,
  ): Promise<MediaItem> {
    const processed = await runProcessing(() => processImage(bytes));
    const { original } = processed;
    const { name, stem } = newImageName(original.type);
    const files = [
      { path: name, data: original.data, mime: original.type.mime },
      ...processed.variants.map((variant) => ({
        path: variantName(stem, variant.width, variant.type),
        data: variant.data,
        mime: variant.type.mime,
      })),
    ];
    const variants: MediaVariant[] = processed.variants.map((variant, index) => ({
      width: variant.width,
      height: variant.height,
      format: variant.type.format,
      path: files[index + 1]!.path,
      bytes: variant.data.length,
    }));

    const written = await Promise.allSettled(files.map((file) => storage.put(file.path, file.data, file.mime)));
    try {
      const failure = written.find((result) => result.status === "rejected");
      if (failure) throw failure.reason;
      const record = await insertMedia(db, {
        id: newId("media"),
        bucket: storage.bucket,
        path: name,
        mime: original.type.mime,
        bytes: original.data.length,
        width: original.width,
        height: original.height,
        created_at: new Date().toISOString(),
        created_by: actorId,
        alt: details.alt,
        original_name: details.originalName,
        source_url: details.sourceUrl,
        variants,
      });
      return toMediaItem(record, storage);
    } catch (error) {
      const stored = files.filter((_file, index) => written[index]?.status === "fulfilled").map((file) => file.path);
      await storage.delete(stored).catch((cleanup: unknown) => {
        logger.warn({ err: cleanup, paths: stored }, "Could not remove the files of a failed upload");
      });
      throw error;
    }
  }

  async function withUsage(records: MediaRecord[]): Promise<MediaLibraryItem[]> {
    const usage = await findUsage(db, storage, records);
    return records.map((record) => ({ ...toMediaItem(record, storage), usage: usage.get(record.id) ?? [] }));
  }

  async function remove(record: MediaRecord, confirmed: boolean, actorId: string | null, named?: string[]) {
    const usage = (await findUsage(db, storage, [record])).get(record.id) ?? [];
    const unnamed = named === undefined ? [] : usage.filter((place) => !named.includes(place.sectionId));
    if (usage.length > 0 && (!confirmed || unnamed.length > 0)) throw new MediaInUse(usage);
    // Files first: if that fails the record stays and the delete can be retried;
    // deleting files that are already gone succeeds.
    await storage.delete([record.path, ...record.variants.map((variant) => variant.path)]);
    await deleteMediaRecord(db, record, actorId, { usedIn: usage.map((place) => place.sectionId) });
    await onChange();
    return { deleted: toMediaItem(record, storage), usage };
  }

  return {
    storage,

    /** An uploaded file (its bytes as received: the type is decided from them). */
    async upload(input: { bytes: Buffer; originalName?: string | null; alt?: string | null }, actorId: string | null) {
      const details = parseInput(uploadInput, { originalName: input.originalName, alt: input.alt });
      return store(input.bytes, { ...details, sourceUrl: null }, actorId);
    },

    /** An image pasted by URL, fetched once into media storage. */
    async importFromUrl(input: { url: unknown; alt?: unknown }, actorId: string | null) {
      const { url, alt } = parseInput(importInput, input);
      const bytes = await fetchImage(url, options.fetchOptions);
      const { originalName } = parseInput(uploadInput, { originalName: nameInUrl(url) });
      return store(bytes, { originalName, alt, sourceUrl: url }, actorId);
    },

    /** Every image, newest first, with the chapter sections showing it. */
    async list(): Promise<MediaLibraryItem[]> {
      return withUsage(await listMedia(db, storage.bucket));
    },

    async get(id: string): Promise<MediaLibraryItem> {
      const [item] = await withUsage([await findMedia(db, id)]);
      return item!;
    },

    async updateAlt(input: { id: unknown; alt: unknown; revision: unknown }, actorId: string | null) {
      const change = parseInput(altChangeInput, input);
      const record = await updateMediaAlt(db, change, actorId);
      await onChange();
      return toMediaItem(record, storage);
    },

    /**
     * Deletes an image; while chapter sections show it, only with `confirmed`, and then
     * only if `confirmedSections`, when given, names each of them (MediaInUse lists them).
     */
    async remove(input: { id: unknown; confirmed?: unknown; confirmedSections?: unknown }, actorId: string | null) {
      const { id, confirmed, confirmedSections } = parseInput(removeInput, input);
      const named = confirmedSections?.split(",").filter(Boolean);
      return remove(await findMedia(db, id), confirmed, actorId, named);
    },

    /** The spec's delete by URL: the URL must contain the bucket name; the path after it names the image. */
    async removeByUrl(input: { url: unknown; confirmed?: unknown }, actorId: string | null) {
      const { url, confirmed } = parseInput(removeByUrlInput, input);
      const marker = `${storage.bucket}/`;
      const at = url.lastIndexOf(marker);
      if (at < 0) throw new Invalid({ url: INVALID_IMAGE_URL_MESSAGE });
      const name = url.slice(at + marker.length).split(/[?#]/)[0] ?? "";
      if (!isImageName(name)) throw new Invalid({ url: INVALID_IMAGE_URL_MESSAGE });
      // A variant's URL names the image it belongs to.
      return remove(await findMediaByStem(db, storage.bucket, stemOf(name)), confirmed, actorId);
    },

    /** Dimensions, srcsets and alt text of the library's images among these URLs, for the public reader. */
    describeImages: (urls: string[]) => describeImages(db, storage, urls),
  };
}
