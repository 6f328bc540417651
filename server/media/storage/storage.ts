/**
 * Where image files live: one interface, two drivers (local disk under DATA_DIR, or
 * an S3-compatible store), exercised by the same tests. Paths are file names made by
 * names.ts, inside the one logical bucket; drivers refuse any other shape.
 */

export interface StoredFile {
  path: string;
  bytes: number;
  modifiedAt: string;
}

export interface ReadFile {
  body: Buffer;
  contentType: string;
  cacheControl: string | undefined;
}

export interface MediaStorage {
  readonly driver: "local" | "s3";
  /** The logical bucket (`project-images`): a folder on disk, a key prefix in S3, a segment of every URL. */
  readonly bucket: string;
  /** Stores a new file; never replaces one (FileExists when the path is taken). */
  put(path: string, body: Buffer, contentType: string): Promise<void>;
  /** The file, or null when there is none. */
  get(path: string): Promise<ReadFile | null>;
  list(): Promise<StoredFile[]>;
  /** Removes the files; ones already gone are not an error, so a failed delete can be retried. */
  delete(paths: string[]): Promise<void>;
  /** The public URL of a file. */
  url(path: string): string;
  /** The path of a URL this storage serves (as url() writes it), or null for any other URL. */
  pathOf(url: string): string | null;
  /** The origin images are served from when it is not the site's own (for the CSP's img-src). */
  readonly imageOrigin: string | null;
  /** Releases connections (S3); nothing to do on disk. */
  close(): void;
}

export class FileExists extends Error {
  constructor(path: string) {
    super(`A stored file already has the path ${path}`);
    this.name = "FileExists";
  }
}

/** Paths are checked by every driver before touching anything. */
export class UnsafePath extends Error {
  constructor(path: string) {
    super(`Not a media file name: ${JSON.stringify(path.slice(0, 80))}`);
    this.name = "UnsafePath";
  }
}
