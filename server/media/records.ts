import type { Insertable, Kysely, Selectable } from "kysely";
import { recordAudit } from "../audit/audit-log.ts";
import { type Database, type MediaTable, type MediaVariant, toJson } from "../db/schema.ts";
import { Conflict, NotFound } from "../errors.ts";
import { IMAGE_NOT_FOUND_MESSAGE } from "./rules.ts";

/** The media table: one row per stored image. The only writer of that table. */

export type MediaRecord = Selectable<MediaTable>;

export const STALE_MEDIA_MESSAGE =
  "This image was changed by someone else since you opened it. Reload to see the latest version.";

/** Records a stored image, with its audit entry, in one transaction. */
export async function insertMedia(
  db: Kysely<Database>,
  row: Omit<Insertable<MediaTable>, "variants" | "revision"> & { variants: MediaVariant[] },
): Promise<MediaRecord> {
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto("media")
      .values({ ...row, variants: toJson(row.variants) })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      userId: row.created_by ?? null,
      action: "media.uploaded",
      entity: "media",
      entityId: row.id,
      details: { path: row.path, bytes: row.bytes, ...(row.source_url ? { source: row.source_url } : {}) },
    });
    return inserted;
  });
}

export async function findMedia(db: Kysely<Database>, id: string): Promise<MediaRecord> {
  const row = await db.selectFrom("media").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) throw new NotFound(IMAGE_NOT_FOUND_MESSAGE);
  return row;
}

/** The image whose file name (or a variant's) starts with this stem. */
export async function findMediaByStem(db: Kysely<Database>, bucket: string, stem: string): Promise<MediaRecord> {
  const row = await db
    .selectFrom("media")
    .selectAll()
    .where("bucket", "=", bucket)
    .where("path", "like", `${stem}.%`)
    .executeTakeFirst();
  if (!row) throw new NotFound(IMAGE_NOT_FOUND_MESSAGE);
  return row;
}

export async function findMediaByPaths(db: Kysely<Database>, bucket: string, paths: string[]): Promise<MediaRecord[]> {
  if (paths.length === 0) return [];
  const rows = await db
    .selectFrom("media")
    .selectAll()
    .where("bucket", "=", bucket)
    .where("path", "in", paths)
    .execute();
  return rows;
}

/** The images whose file names start with these stems (a variant's stem is its image's). */
export async function findMediaByStems(db: Kysely<Database>, bucket: string, stems: string[]): Promise<MediaRecord[]> {
  if (stems.length === 0) return [];
  // Stems are [0-9a-z-] (names.ts): nothing LIKE treats specially.
  return db
    .selectFrom("media")
    .selectAll()
    .where("bucket", "=", bucket)
    .where((eb) => eb.or(stems.map((stem) => eb("path", "like", `${stem}.%`))))
    .execute();
}

/** Newest first. */
export async function listMedia(db: Kysely<Database>, bucket: string): Promise<MediaRecord[]> {
  const rows = await db
    .selectFrom("media")
    .selectAll()
    .where("bucket", "=", bucket)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows;
}

/** Sets the alt text if the row is still at `revision` (optimistic concurrency). */
export async function updateMediaAlt(
  db: Kysely<Database>,
  change: { id: string; alt: string | null; revision: number },
  actorId: string | null,
): Promise<MediaRecord> {
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable("media")
      .set((eb) => ({ alt: change.alt, revision: eb("revision", "+", 1) }))
      .where("id", "=", change.id)
      .where("revision", "=", change.revision)
      .returningAll()
      .executeTakeFirst();
    if (!updated) {
      await findMedia(trx, change.id);
      throw new Conflict(STALE_MEDIA_MESSAGE);
    }
    await recordAudit(trx, {
      userId: actorId,
      action: "media.alt-changed",
      entity: "media",
      entityId: change.id,
      details: { alt: change.alt },
    });
    return updated;
  });
}

export async function deleteMediaRecord(
  db: Kysely<Database>,
  media: MediaRecord,
  actorId: string | null,
  details: Record<string, unknown>,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const { numDeletedRows } = await trx.deleteFrom("media").where("id", "=", media.id).executeTakeFirst();
    // Another delete of the same image got there first: it is theirs to record, not ours.
    if (numDeletedRows === 0n) throw new NotFound(IMAGE_NOT_FOUND_MESSAGE);
    await recordAudit(trx, {
      userId: actorId,
      action: "media.deleted",
      entity: "media",
      entityId: media.id,
      details: { path: media.path, ...details },
    });
  });
}
