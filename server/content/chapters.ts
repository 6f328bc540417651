import type { Kysely, Selectable, Transaction } from "kysely";
import { z } from "zod";
import { type ChaptersTable, type Database, SECTION_TYPES } from "../db/schema.ts";
import { Invalid, NotFound } from "../errors.ts";
import { newId } from "../ids.ts";
import { parseInput } from "../validation.ts";
import { contentPublished, contentWithdrawn, publishedPaths } from "./publishing.ts";
import { slugify, uniqueSlug } from "./slugs.ts";
import { type ContentStore, changed, isUniqueViolation, nextOrderIndex, orderIndex } from "./store.ts";

/**
 * The chapters, chapter_sections and chapter_slug_redirects tables: the only module
 * that writes them. A chapter's slug comes from its title; renaming it gives it a new
 * slug and keeps the old one as a redirect, so earlier links keep working.
 */

export interface ChapterRecord {
  id: string;
  slug: string;
  title: string;
  number: number;
  orderIndex: number;
  published: boolean;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
}

export interface SectionRecord {
  id: string;
  chapterId: string;
  type: (typeof SECTION_TYPES)[number];
  content: string;
  caption: string | null;
  language: string | null;
  orderIndex: number;
}

const title = z
  .string({ error: "Chapter title is required" })
  .trim()
  .min(1, "Chapter title is required")
  .max(200, "Chapter title is too long (200 characters at most)");

const newChapterSchema = z.object({ title, published: z.boolean().default(true) });

const chapterChangesSchema = z.object({
  title: title.optional(),
  published: z.boolean().optional(),
  number: z.coerce.number().int("Chapter number must be a whole number").min(0).max(1_000_000).optional(),
  orderIndex: orderIndex.optional(),
});

const optionalText = z
  .string()
  .trim()
  .max(500)
  .nullish()
  .transform((value) => (value ? value : null));

const sectionFields = {
  type: z.enum(SECTION_TYPES, { error: "Choose a section type" }),
  content: z
    .string({ error: "Section content is required" })
    .max(200_000, "Section content is too long")
    .refine((value) => value.trim() !== "", "Section content is required"),
  caption: optionalText,
  language: optionalText,
};

const newSectionSchema = z.object({
  chapterId: z.string({ error: "Please select a chapter first" }).min(1, "Please select a chapter first"),
  ...sectionFields,
});

const sectionChangesSchema = z.object({
  type: sectionFields.type.optional(),
  content: sectionFields.content.optional(),
  caption: sectionFields.caption.optional(),
  language: sectionFields.language.optional(),
});

const chapterItem = (row: Selectable<ChaptersTable>) => ({
  type: "chapter" as const,
  id: row.id,
  title: row.title,
  url: publishedPaths.chapter(row.slug),
});

function toChapter(row: Selectable<ChaptersTable>): ChapterRecord {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    number: row.number,
    orderIndex: row.order_index,
    published: row.published,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    publishedAt: row.published_at ?? null,
  };
}

function toSection(row: {
  id: string;
  chapter_id: string;
  type: SectionRecord["type"];
  content: string;
  caption: string | null;
  language: string | null;
  order_index: number;
}): SectionRecord {
  return {
    id: row.id,
    chapterId: row.chapter_id,
    type: row.type,
    content: row.content,
    caption: row.caption,
    language: row.language,
    orderIndex: row.order_index,
  };
}

/** Slugs another chapter holds now or redirects from. */
async function takenSlugs(db: Kysely<Database>, exceptChapterId?: string): Promise<Set<string>> {
  let current = db.selectFrom("chapters").select("slug");
  let former = db.selectFrom("chapter_slug_redirects").select("slug");
  if (exceptChapterId) {
    current = current.where("id", "!=", exceptChapterId);
    former = former.where("chapter_id", "!=", exceptChapterId);
  }
  const rows = [...(await current.execute()), ...(await former.execute())];
  return new Set(rows.map((row) => row.slug));
}

/** Runs a slug-allocating write again when a concurrent writer took the same slug first. */
async function withSlugRetry<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= 3 || !isUniqueViolation(error)) throw error;
    }
  }
}

export async function listChapters(db: Kysely<Database>): Promise<ChapterRecord[]> {
  const rows = await db.selectFrom("chapters").selectAll().orderBy("order_index").orderBy("number").execute();
  return rows.map(toChapter);
}

export async function getChapter(db: Kysely<Database>, id: string): Promise<ChapterRecord> {
  const row = await db.selectFrom("chapters").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) throw new NotFound("This chapter no longer exists.");
  return toChapter(row);
}

/** New chapters go last: highest order_index + 1 and highest number + 1; published unless said otherwise. */
export async function createChapter(
  store: ContentStore,
  input: { title: string; published?: boolean },
): Promise<ChapterRecord> {
  const data = parseInput(newChapterSchema, input);
  const chapter = await withSlugRetry(() =>
    store.db.transaction().execute(async (trx) => {
      const orderIndex = await nextOrderIndex(trx, "chapters");
      const highest = await trx
        .selectFrom("chapters")
        .select((eb) => eb.fn.max("number").as("highest"))
        .executeTakeFirst();
      const number = highest?.highest == null ? 1 : Number(highest.highest) + 1;
      const slug = uniqueSlug(slugify(data.title), await takenSlugs(trx));
      const now = new Date().toISOString();
      const row = await trx
        .insertInto("chapters")
        .values({
          id: newId("chapter"),
          slug,
          title: data.title,
          number,
          order_index: orderIndex,
          published: data.published,
          created_at: now,
          updated_at: now,
          published_at: data.published ? now : null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      if (row.published) await contentPublished({ ...store, db: trx }, chapterItem(row));
      return toChapter(row);
    }),
  );
  await changed(store);
  return chapter;
}

/**
 * Changes title, published, number or order. A new title gives a new slug; the old one
 * redirects. published_at is set the first time the chapter is published.
 */
export async function updateChapter(
  store: ContentStore,
  id: string,
  changes: { title?: string; published?: boolean; number?: number; orderIndex?: number },
): Promise<ChapterRecord> {
  const data = parseInput(chapterChangesSchema, changes);
  const chapter = await withSlugRetry(() =>
    store.db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom("chapters").selectAll().where("id", "=", id).executeTakeFirst();
      if (!current) throw new NotFound("This chapter no longer exists.");
      const now = new Date().toISOString();
      let slug = current.slug;
      if (data.title !== undefined && data.title !== current.title) {
        slug = await renameSlug(trx, id, current.slug, data.title);
      }
      const row = await trx
        .updateTable("chapters")
        .set({
          slug,
          ...(data.title !== undefined ? { title: data.title } : {}),
          ...(data.published !== undefined ? { published: data.published } : {}),
          ...(data.number !== undefined ? { number: data.number } : {}),
          ...(data.orderIndex !== undefined ? { order_index: data.orderIndex } : {}),
          ...(data.published && !current.published_at ? { published_at: now } : {}),
          updated_at: now,
        })
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirstOrThrow();
      if (row.published && !current.published) await contentPublished({ ...store, db: trx }, chapterItem(row));
      if (!row.published && current.published) await contentWithdrawn({ ...store, db: trx }, chapterItem(row));
      return toChapter(row);
    }),
  );
  await changed(store);
  return chapter;
}

async function renameSlug(trx: Transaction<Database>, id: string, oldSlug: string, newTitle: string) {
  const base = slugify(newTitle);
  // A title that still yields the current slug (or its numbered form) keeps it.
  if (oldSlug === base || new RegExp(`^${base}-\\d+$`).test(oldSlug)) return oldSlug;
  const slug = uniqueSlug(base, await takenSlugs(trx, id));
  // Renamed back to an earlier title: the slug is this chapter's again, not a redirect.
  await trx.deleteFrom("chapter_slug_redirects").where("slug", "=", slug).where("chapter_id", "=", id).execute();
  await trx
    .insertInto("chapter_slug_redirects")
    .values({ slug: oldSlug, chapter_id: id, created_at: new Date().toISOString() })
    .onConflict((conflict) => conflict.column("slug").doUpdateSet({ chapter_id: id }))
    .execute();
  return slug;
}

/** Deletes the chapter with its sections and former slugs (ON DELETE CASCADE). */
export async function deleteChapter(store: ContentStore, id: string): Promise<void> {
  const result = await store.db.deleteFrom("chapters").where("id", "=", id).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new NotFound("This chapter no longer exists.");
  await contentWithdrawn(store, { type: "chapter", id });
  await changed(store);
}

export async function listSections(db: Kysely<Database>, chapterId: string): Promise<SectionRecord[]> {
  const rows = await db
    .selectFrom("chapter_sections")
    .selectAll()
    .where("chapter_id", "=", chapterId)
    .orderBy("order_index")
    .orderBy("id")
    .execute();
  return rows.map(toSection);
}

async function touchChapter(trx: Kysely<Database>, chapterId: string): Promise<void> {
  await trx.updateTable("chapters").set({ updated_at: new Date().toISOString() }).where("id", "=", chapterId).execute();
}

/** Appends a section: highest order_index of the chapter + 1. */
export async function createSection(
  store: ContentStore,
  input: {
    chapterId: string;
    type: SectionRecord["type"];
    content: string;
    caption?: string | null;
    language?: string | null;
  },
): Promise<SectionRecord> {
  const data = parseInput(newSectionSchema, input);
  const section = await store.db.transaction().execute(async (trx) => {
    const chapter = await trx.selectFrom("chapters").select("id").where("id", "=", data.chapterId).executeTakeFirst();
    if (!chapter) throw new Invalid({ chapterId: "Please select a chapter first" });
    const highest = await trx
      .selectFrom("chapter_sections")
      .select((eb) => eb.fn.max("order_index").as("highest"))
      .where("chapter_id", "=", data.chapterId)
      .executeTakeFirst();
    const row = await trx
      .insertInto("chapter_sections")
      .values({
        id: newId("section"),
        chapter_id: data.chapterId,
        type: data.type,
        content: data.content,
        caption: data.caption,
        language: data.language,
        order_index: highest?.highest == null ? 0 : Number(highest.highest) + 1,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await touchChapter(trx, data.chapterId);
    return toSection(row);
  });
  await changed(store);
  return section;
}

export async function updateSection(
  store: ContentStore,
  id: string,
  changes: { type?: SectionRecord["type"]; content?: string; caption?: string | null; language?: string | null },
): Promise<SectionRecord> {
  const data = parseInput(sectionChangesSchema, changes);
  const section = await store.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("chapter_sections")
      .set({
        ...(data.type !== undefined ? { type: data.type } : {}),
        ...(data.content !== undefined ? { content: data.content } : {}),
        ...(data.caption !== undefined ? { caption: data.caption } : {}),
        ...(data.language !== undefined ? { language: data.language } : {}),
      })
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new NotFound("This section no longer exists.");
    await touchChapter(trx, row.chapter_id);
    return toSection(row);
  });
  await changed(store);
  return section;
}

export async function deleteSection(store: ContentStore, id: string): Promise<void> {
  await store.db.transaction().execute(async (trx) => {
    const row = await trx
      .deleteFrom("chapter_sections")
      .where("id", "=", id)
      .returning("chapter_id")
      .executeTakeFirst();
    if (!row) throw new NotFound("This section no longer exists.");
    await touchChapter(trx, row.chapter_id);
  });
  await changed(store);
}

/**
 * Swaps the section's order_index with its neighbour's (spec §4). The first cannot move
 * up and the last cannot move down: then nothing changes and false is returned.
 */
export async function moveSection(store: ContentStore, id: string, direction: "up" | "down"): Promise<boolean> {
  const moved = await store.db.transaction().execute(async (trx) => {
    const section = await trx.selectFrom("chapter_sections").selectAll().where("id", "=", id).executeTakeFirst();
    if (!section) throw new NotFound("This section no longer exists.");
    const siblings = await listSections(trx, section.chapter_id);
    const position = siblings.findIndex((sibling) => sibling.id === id);
    const neighbour = siblings[direction === "up" ? position - 1 : position + 1];
    if (!neighbour) return false;
    // Equal order_index values (never made by this module) still swap places by position.
    const [mine, theirs] =
      neighbour.orderIndex === section.order_index
        ? direction === "up"
          ? [neighbour.orderIndex, neighbour.orderIndex + 1]
          : [neighbour.orderIndex + 1, neighbour.orderIndex]
        : [neighbour.orderIndex, section.order_index];
    await trx.updateTable("chapter_sections").set({ order_index: mine }).where("id", "=", id).execute();
    await trx.updateTable("chapter_sections").set({ order_index: theirs }).where("id", "=", neighbour.id).execute();
    await touchChapter(trx, section.chapter_id);
    return true;
  });
  if (moved) await changed(store);
  return moved;
}
