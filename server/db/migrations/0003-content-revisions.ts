import type { Kysely } from "kysely";

/**
 * Optimistic concurrency for the admin's edits: every editable row carries an integer
 * `revision`, raised by each change; a save names the revision its form was opened at,
 * and a stale one is refused instead of overwriting someone else's change. Ordered
 * lists (a chapter's sections, the About page's lists) carry a revision of their order
 * in list_revisions, raised by every reorder, addition and removal.
 * Image sections also get their alt text, separate from the visible caption.
 */

export const REVISIONED_TABLES = [
  "home_page_content",
  "chapters",
  "chapter_sections",
  "tips_resources",
  "resources",
  "certifications",
  "skills",
  "timeline_events",
  "site_content",
  "site_settings",
  "newsletter_settings",
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of REVISIONED_TABLES) {
    await db.schema
      .alterTable(table)
      .addColumn("revision", "integer", (column) => column.notNull().defaultTo(1))
      .execute();
  }
  await db.schema
    .createTable("list_revisions")
    .addColumn("list_key", "text", (column) => column.primaryKey())
    .addColumn("revision", "integer", (column) => column.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("chapter_sections").addColumn("alt", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("chapter_sections").dropColumn("alt").execute();
  await db.schema.dropTable("list_revisions").execute();
  for (const table of REVISIONED_TABLES) {
    await db.schema.alterTable(table).dropColumn("revision").execute();
  }
}
