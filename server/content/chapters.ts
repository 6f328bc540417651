import type { Kysely, Selectable, Transaction } from "kysely";
import type { ChaptersTable, Database } from "../db/schema.ts";
import { newId } from "../ids.ts";
import { parseInput } from "../validation.ts";
import { type ChapterChanges, chapterChangesSchema, type NewChapter, newChapterSchema } from "./chapter-input.ts";
import {
  bumpListRevision,
  forgetListRevision,
  listKeys,
  type RevisionedList,
  readRevisionedList,
} from "./list-revisions.ts";
import { publishedPaths } from "./paths.ts";
import { contentPublished, contentWithdrawn } from "./publishing.ts";
import { changedColumns, goneError, holdsValues, saveAtRevision } from "./revisions.ts";
import { slugify, uniqueSlug } from "./slugs.ts";
import { type ContentStore, defined, isUniqueViolation, nextOrderIndex, writeContent } from "./store.ts";

/**
 * The chapters and chapter_slug_redirects tables: the only module that writes them
 * (a chapter's sections are in sections.ts). A chapter's slug comes from its title;
 * renaming it gives it a new slug and keeps the old one as a redirect, so earlier
 * links keep working.
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
  revision: number;
}

type ChapterRow = Selectable<ChaptersTable>;

const chapterItem = (row: ChapterRow) => ({
  type: "chapter" as const,
  id: row.id,
  title: row.title,
  url: publishedPaths.chapter(row.slug),
});

function toChapter(row: ChapterRow): ChapterRecord {
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
    revision: row.revision,
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

async function selectChapter(db: Kysely<Database>, id: string): Promise<ChapterRow | undefined> {
  return db.selectFrom("chapters").selectAll().where("id", "=", id).executeTakeFirst();
}

/** All chapters, drafts included, by order_index, with the list's revision. */
export async function listChapters(db: Kysely<Database>): Promise<RevisionedList<ChapterRecord>> {
  return readRevisionedList(db, listKeys.chapters, async () => {
    // Ending with the id, as the public list does: tied rows keep one order on both databases.
    const rows = await db
      .selectFrom("chapters")
      .selectAll()
      .orderBy("order_index")
      .orderBy("number")
      .orderBy("id")
      .execute();
    return rows.map(toChapter);
  });
}

export async function getChapter(db: Kysely<Database>, id: string): Promise<ChapterRecord> {
  const row = await selectChapter(db, id);
  if (!row) throw goneError("chapter");
  return toChapter(row);
}

/**
 * New chapters go last unless told otherwise: highest order_index + 1 and highest
 * number + 1 (the first chapter is number 1 at order 0); published unless said otherwise.
 */
export async function createChapter(store: ContentStore, input: NewChapter): Promise<ChapterRecord> {
  const data = parseInput(newChapterSchema, input);
  return withSlugRetry(() =>
    writeContent(store, async ({ trx, store: inTransaction, audit }) => {
      const highest = await trx
        .selectFrom("chapters")
        .select((eb) => eb.fn.max("number").as("highest"))
        .executeTakeFirst();
      const now = new Date().toISOString();
      const row = await trx
        .insertInto("chapters")
        .values({
          id: newId("chapter"),
          slug: uniqueSlug(slugify(data.title), await takenSlugs(trx)),
          title: data.title,
          number: data.number ?? (highest?.highest == null ? 1 : Number(highest.highest) + 1),
          order_index: data.orderIndex ?? (await nextOrderIndex(trx, "chapters")),
          published: data.published,
          created_at: now,
          updated_at: now,
          published_at: data.published ? now : null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await bumpListRevision(trx, listKeys.chapters);
      if (row.published) await contentPublished(inTransaction, chapterItem(row));
      await audit({ action: "chapter.created", entity: "chapter", entityId: row.id, details: { title: row.title } });
      return toChapter(row);
    }),
  );
}

/**
 * Changes title, published, number or order at the revision the editor saw. A new
 * title gives a new slug; the old one redirects. published_at is set the first time
 * the chapter is published; publishing schedules the newsletter notification and
 * unpublishing within its grace period cancels it.
 */
export async function updateChapter(store: ContentStore, id: string, changes: ChapterChanges): Promise<ChapterRecord> {
  const { revision, ...data } = parseInput(chapterChangesSchema, changes);
  const saved = defined({
    title: data.title,
    published: data.published,
    number: data.number,
    order_index: data.orderIndex,
  });
  return withSlugRetry(() =>
    writeContent(store, async ({ trx, store: inTransaction, audit }) => {
      const { row, before } = await saveAtRevision("chapter", revision, {
        read: () => selectChapter(trx, id),
        holds: (current) => holdsValues(current, saved),
        async write(current) {
          const now = new Date().toISOString();
          const slug = saved.title === undefined ? current.slug : await slugForTitle(trx, current, saved.title);
          const updated = await trx
            .updateTable("chapters")
            .set((eb) => ({
              ...saved,
              slug,
              ...(saved.published && !current.published_at ? { published_at: now } : {}),
              updated_at: now,
              revision: eb("revision", "+", 1),
            }))
            .where("id", "=", id)
            .where("revision", "=", revision)
            .returningAll()
            .executeTakeFirst();
          if (updated && slug !== current.slug) await keepFormerSlug(trx, id, current.slug, slug);
          return updated;
        },
      });
      if (!before) return toChapter(row);
      if (row.order_index !== before.order_index) await bumpListRevision(trx, listKeys.chapters);
      if (row.published && !before.published) await contentPublished(inTransaction, chapterItem(row));
      if (!row.published && before.published) await contentWithdrawn(inTransaction, chapterItem(row));
      await audit({
        action: "chapter.updated",
        entity: "chapter",
        entityId: id,
        details: { changed: changedColumns(before, row, Object.keys(saved)) },
      });
      return toChapter(row);
    }),
  );
}

/** The slug a chapter gets for a new title: a title that still yields its slug (or its numbered form) keeps it. */
async function slugForTitle(trx: Transaction<Database>, chapter: ChapterRow, newTitle: string): Promise<string> {
  const base = slugify(newTitle);
  if (chapter.slug === base || new RegExp(`^${base}-\\d+$`).test(chapter.slug)) return chapter.slug;
  return uniqueSlug(base, await takenSlugs(trx, chapter.id));
}

/** The former slug redirects to the chapter; a slug the chapter takes back is no longer a redirect. */
async function keepFormerSlug(trx: Transaction<Database>, id: string, oldSlug: string, newSlug: string) {
  await trx.deleteFrom("chapter_slug_redirects").where("slug", "=", newSlug).where("chapter_id", "=", id).execute();
  await trx
    .insertInto("chapter_slug_redirects")
    .values({ slug: oldSlug, chapter_id: id, created_at: new Date().toISOString() })
    .onConflict((conflict) => conflict.column("slug").doUpdateSet({ chapter_id: id }))
    .execute();
}

/** Deletes the chapter with its sections and former slugs (ON DELETE CASCADE). */
export async function deleteChapter(store: ContentStore, id: string): Promise<void> {
  await writeContent(store, async ({ trx, store: inTransaction, audit }) => {
    const row = await trx.deleteFrom("chapters").where("id", "=", id).returning("title").executeTakeFirst();
    if (!row) throw goneError("chapter");
    await contentWithdrawn(inTransaction, { type: "chapter", id });
    await bumpListRevision(trx, listKeys.chapters);
    await forgetListRevision(trx, listKeys.sections(id));
    await audit({ action: "chapter.deleted", entity: "chapter", entityId: id, details: { title: row.title } });
  });
}

/** Whether the chapter exists. */
export async function chapterExists(db: Kysely<Database>, id: string): Promise<boolean> {
  return (await db.selectFrom("chapters").select("id").where("id", "=", id).executeTakeFirst()) !== undefined;
}

/** A section of the chapter changed: the reader's "updated" date moves (not an edit of the chapter: its revision stays). */
export async function markChapterEdited(trx: Transaction<Database>, chapterId: string): Promise<void> {
  await trx.updateTable("chapters").set({ updated_at: new Date().toISOString() }).where("id", "=", chapterId).execute();
}
