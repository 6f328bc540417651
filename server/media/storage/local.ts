import { randomBytes } from "node:crypto";
import { link, mkdir, readdir, readFile, rm, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { imageTypeOfName } from "../image-type.ts";
import { isImageName } from "../names.ts";
import { IMMUTABLE_CACHE_CONTROL } from "../rules.ts";
import { FileExists, type MediaStorage, UnsafePath } from "./storage.ts";

/** The URL path local files are served under by the Express app (server/http/media-files.ts). */
export const LOCAL_MEDIA_PREFIX = "/media";

export interface LocalStorage extends MediaStorage {
  readonly driver: "local";
  /** The file on disk for a path (checked), for serving it. */
  filePath(name: string): string;
}

export function isLocalStorage(storage: MediaStorage): storage is LocalStorage {
  return storage.driver === "local";
}

export interface LocalStorageOptions {
  /** DATA_DIR: files go to DATA_DIR/media/<bucket>/. */
  dataDir: string;
  bucket: string;
  /** The site's origin: absolute URLs on it are ours too. */
  publicOrigin: string;
}

/** Media files in a folder of DATA_DIR, served by the site itself at /media/<bucket>/<name>. */
export function createLocalStorage(options: LocalStorageOptions): LocalStorage {
  const { bucket, publicOrigin } = options;
  const directory = path.join(path.resolve(options.dataDir), "media", bucket);
  const urlPrefix = `${LOCAL_MEDIA_PREFIX}/${bucket}/`;

  const filePath = (name: string): string => {
    if (!isImageName(name)) throw new UnsafePath(name);
    return path.join(directory, name);
  };

  return {
    driver: "local",
    bucket,
    imageOrigin: null,
    filePath,
    close() {},

    async put(name, body) {
      const target = filePath(name);
      await mkdir(directory, { recursive: true });
      // Written aside, then linked into place: readers never see half a file, and
      // link() fails rather than replace a file that exists.
      const temporary = path.join(directory, `.${name}.${randomBytes(6).toString("hex")}.tmp`);
      try {
        // Inside the try: a write that fails part way (a full disk) has already made the
        // file, and nothing else would ever remove it.
        await writeFile(temporary, body, { flag: "wx" });
        await link(temporary, target).catch((error: NodeJS.ErrnoException) => {
          throw error.code === "EEXIST" ? new FileExists(name) : error;
        });
      } finally {
        // `force`: a write that failed before making the file leaves nothing to remove,
        // and its own error is the one to tell.
        await rm(temporary, { force: true });
      }
    },

    async get(name) {
      try {
        const body = await readFile(filePath(name));
        return { body, contentType: imageTypeOfName(name)?.mime as string, cacheControl: IMMUTABLE_CACHE_CONTROL };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },

    async list() {
      let names: string[];
      try {
        names = await readdir(directory);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
        throw error;
      }
      const files = [];
      for (const name of names.filter(isImageName).sort()) {
        let info: Awaited<ReturnType<typeof stat>>;
        try {
          info = await stat(path.join(directory, name));
        } catch (error) {
          // Deleted since the folder was read (an editor deleting during a backup): not listed.
          if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
          throw error;
        }
        files.push({ path: name, bytes: info.size, modifiedAt: info.mtime.toISOString() });
      }
      return files;
    },

    async delete(names) {
      for (const name of names) {
        try {
          await unlink(filePath(name));
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        }
      }
    },

    url(name) {
      if (!isImageName(name)) throw new UnsafePath(name);
      return `${urlPrefix}${name}`;
    },

    pathOf(url) {
      let parsed: URL;
      try {
        parsed = new URL(url, publicOrigin);
      } catch {
        return null;
      }
      if (parsed.origin !== publicOrigin || parsed.search || parsed.hash) return null;
      if (!parsed.pathname.startsWith(urlPrefix)) return null;
      const name = parsed.pathname.slice(urlPrefix.length);
      return isImageName(name) ? name : null;
    },
  };
}
