import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { create, extract } from "tar";
import { z } from "zod";
import { isImageName } from "../media/names.ts";

/**
 * A backup is one .tar.gz (docs/decisions/016-backups-and-exports.md):
 *   manifest.json            what follows, with a SHA-256 of every other file
 *   database/bastion.sqlite  SQLite: the database file as VACUUM INTO wrote it
 *   database/data.jsonl      PostgreSQL: every table, in the export format (docs/data-format.md)
 *   media/<bucket>/<name>    every media file, byte for byte
 */

export const BACKUP_FORMAT = "bastion-backup";
export const BACKUP_FORMAT_VERSION = 1;
export const MANIFEST = "manifest.json";
export const SQLITE_ENTRY = "database/bastion.sqlite";
export const DATA_ENTRY = "database/data.jsonl";

/** The paths an archive may hold besides its manifest (never "..", never absolute). */
const ARCHIVE_PATH = /^(database\/bastion\.sqlite|database\/data\.jsonl|media\/[a-z0-9-]+\/[A-Za-z0-9._-]+)$/;

export const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT, { message: `it is not a Bastion backup (no "${BACKUP_FORMAT}" manifest)` }),
  version: z.number().int(),
  appVersion: z.string(),
  schemaVersion: z.string(),
  database: z.enum(["sqlite", "postgres"]),
  createdAt: z.string(),
  /** Rows per table, as the backup holds them. */
  tables: z.record(z.string().regex(/^[A-Za-z_]+$/, { message: "names no table" }), z.number().int().min(0)),
  media: z.object({
    bucket: z.string().regex(/^[a-z0-9-]+$/, { message: "is not a bucket name" }),
    files: z.number().int().min(0),
    bytes: z.number().int().min(0),
  }),
  /** Every file of the archive but the manifest: path → size and SHA-256 (hex). Only these shapes of path. */
  files: z.record(
    z.string().regex(ARCHIVE_PATH, { message: "names a file outside the archive's layout" }),
    z.object({ bytes: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
  ),
});

export type Manifest = z.infer<typeof manifestSchema>;

export class ArchiveError extends Error {
  override name = "ArchiveError";
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** Every file under `directory`, as forward-slash paths relative to it, sorted. */
export async function listFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(directory, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .sort();
}

/** Size and checksum of every file of a staged backup (the manifest is written after). */
export async function describeFiles(directory: string): Promise<Manifest["files"]> {
  const files: Manifest["files"] = {};
  for (const name of await listFiles(directory)) {
    const full = path.join(directory, name);
    files[name] = { bytes: (await stat(full)).size, sha256: await sha256File(full) };
  }
  return files;
}

/**
 * Writes the manifest and packs the staged folder into `target`: written under a
 * temporary name and renamed, so a backup file that exists is complete.
 */
export async function packArchive(directory: string, manifest: Manifest, target: string): Promise<number> {
  await writeFile(path.join(directory, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  const entries = [MANIFEST, ...Object.keys(manifest.files)];
  const temporary = `${target}.partial`;
  try {
    await create({ gzip: true, file: temporary, cwd: directory, portable: true, noDirRecurse: true }, entries);
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return (await stat(target)).size;
}

/**
 * Unpacks an archive into an empty folder and checks it against its manifest: every
 * file listed is there with its size and SHA-256, and nothing else is; media files are
 * image names in the manifest's bucket, as many and as large as it says. The manifest
 * is read first, and only what it lists, at the size it gives, is written to disk: a
 * small archive that inflates to gigabytes of unlisted data fills no disk. Only regular
 * files are unpacked (tar itself refuses absolute paths and "..").
 */
export async function unpackArchive(file: string, directory: string): Promise<Manifest> {
  await extractFiles(file, directory, (entryPath) => entryPath === MANIFEST);
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path.join(directory, MANIFEST), "utf8"));
  } catch {
    throw new ArchiveError(`${file} is not a Bastion backup: it has no readable ${MANIFEST}.`);
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    // A bad key of a record (a file's path) carries its own message inside.
    const detail = issue?.code === "invalid_key" ? issue.issues[0]?.message : issue?.message;
    throw new ArchiveError(`${file} is not a usable Bastion backup: ${issue?.path.join(".") || "manifest"} ${detail}.`);
  }
  const manifest = parsed.data;
  if (manifest.version !== BACKUP_FORMAT_VERSION) {
    throw new ArchiveError(
      `${file} has backup format version ${manifest.version}; this installation reads version ${BACKUP_FORMAT_VERSION}. Upgrade Bastion first.`,
    );
  }
  checkMediaEntries(manifest);

  const unexpected: string[] = [];
  await extractFiles(file, directory, (entryPath, size) => {
    if (entryPath === MANIFEST) return false;
    if (Object.hasOwn(manifest.files, entryPath) && manifest.files[entryPath]?.bytes === size) return true;
    unexpected.push(entryPath);
    return false;
  });
  const [odd] = unexpected;
  if (odd !== undefined) {
    throw new ArchiveError(
      Object.hasOwn(manifest.files, odd)
        ? `The backup is damaged: the size of ${odd} does not match its manifest.`
        : `The backup is damaged: ${odd} is not listed in its manifest.`,
    );
  }
  for (const [name, expected] of Object.entries(manifest.files)) {
    const full = path.join(directory, name);
    const info = await stat(full).catch(() => undefined);
    if (!info) throw new ArchiveError(`The backup is damaged: ${name} is missing.`);
    if (info.size !== expected.bytes || (await sha256File(full)) !== expected.sha256) {
      throw new ArchiveError(`The backup is damaged: the checksum of ${name} does not match its manifest.`);
    }
  }
  return manifest;
}

/** Writes the archive's regular files that `keep` accepts (by path and size) under `directory`. */
async function extractFiles(
  file: string,
  directory: string,
  keep: (entryPath: string, size: number) => boolean,
): Promise<void> {
  try {
    await extract({
      file,
      cwd: directory,
      strict: true,
      filter: (entryPath, entry) => "type" in entry && entry.type === "File" && keep(entryPath, entry.size ?? 0),
    });
  } catch (error) {
    throw new ArchiveError(`${file} cannot be read as a .tar.gz archive: ${(error as Error).message}`);
  }
}

/**
 * The media the manifest lists are what a restore may put in storage: stored image
 * names, all in the manifest's bucket, as many and as many bytes as its media summary.
 */
function checkMediaEntries(manifest: Manifest): void {
  const prefix = `media/${manifest.media.bucket}/`;
  let files = 0;
  let bytes = 0;
  for (const [name, entry] of Object.entries(manifest.files)) {
    if (!name.startsWith("media/")) continue;
    if (!name.startsWith(prefix) || !isImageName(name.slice(prefix.length))) {
      throw new ArchiveError(
        `The backup is damaged: ${name} is not a media file of its bucket ${manifest.media.bucket}.`,
      );
    }
    files++;
    bytes += entry.bytes;
  }
  if (files !== manifest.media.files || bytes !== manifest.media.bytes) {
    throw new ArchiveError(
      `The backup is inconsistent: its manifest counts ${manifest.media.files} media files of ${manifest.media.bytes} bytes, and lists ${files} of ${bytes}.`,
    );
  }
}

/** The media files of an unpacked archive, as [name in storage, path on disk], by name. */
export function mediaEntries(manifest: Manifest, directory: string): Array<[name: string, file: string]> {
  const prefix = `media/${manifest.media.bucket}/`;
  return Object.keys(manifest.files)
    .filter((name) => name.startsWith(prefix))
    .sort()
    .map((name) => [name.slice(prefix.length), path.join(directory, name)]);
}
