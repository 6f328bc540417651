import { type Kysely, sql } from "kysely";
import type { DialectName } from "../connection.ts";

/**
 * The media library's columns beyond the file itself: the image's text alternative,
 * the name it was uploaded under, where an imported image was fetched from, the
 * responsive variants generated at upload (JSON: width, height, format, path, bytes)
 * and a revision for optimistic concurrency on the alt text. Listing is newest first.
 */

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const postgres = dialect === "postgres";
  await db.schema.alterTable("media").addColumn("alt", "text").execute();
  await db.schema.alterTable("media").addColumn("original_name", "text").execute();
  await db.schema.alterTable("media").addColumn("source_url", "text").execute();
  await db.schema
    .alterTable("media")
    .addColumn("variants", postgres ? "jsonb" : "text", (column) =>
      column.notNull().defaultTo(postgres ? sql`'[]'::jsonb` : sql`'[]'`),
    )
    .execute();
  await db.schema
    .alterTable("media")
    .addColumn("revision", "integer", (column) => column.notNull().defaultTo(1))
    .execute();
  await db.schema.createIndex("media_created_at_idx").on("media").column("created_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("media_created_at_idx").execute();
  for (const column of ["revision", "variants", "source_url", "original_name", "alt"]) {
    await db.schema.alterTable("media").dropColumn(column).execute();
  }
}
