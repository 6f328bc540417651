import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { readerSections } from "./published.ts";
import type { ChapterPage, ChapterSummary } from "./types.ts";

/**
 * A chapter as its editors preview it: read from the database whatever its published
 * state (the published-content cache holds published chapters only), placed among
 * the published chapters where it will stand once published, so the sidebar and the
 * previous and next links are the ones visitors will get.
 */

export interface ChapterPreview {
  /** The published chapters and this one, in reading order. */
  chapters: ChapterSummary[];
  page: ChapterPage;
  published: boolean;
}

/** The chapter whose current slug this is, published or not; null when there is none. */
export async function readChapterPreview(db: Kysely<Database>, slug: string): Promise<ChapterPreview | null> {
  const chapter = await db.selectFrom("chapters").selectAll().where("slug", "=", slug).executeTakeFirst();
  if (!chapter) return null;
  const chapters = await db
    .selectFrom("chapters")
    .select(["id", "slug", "title", "number"])
    .where((eb) => eb.or([eb("published", "=", true), eb("id", "=", chapter.id)]))
    // The public reader's order (server/content/published.ts).
    .orderBy("order_index")
    .orderBy("number")
    .orderBy("id")
    .execute();
  const sections = await readerSections(db, chapter.id);
  const position = chapters.findIndex((candidate) => candidate.id === chapter.id);
  return {
    chapters,
    page: {
      chapter: {
        id: chapter.id,
        slug: chapter.slug,
        title: chapter.title,
        number: chapter.number,
        updatedAt: chapter.updated_at,
        publishedAt: chapter.published_at ?? null,
      },
      sections,
      previous: chapters[position - 1] ?? null,
      next: chapters[position + 1] ?? null,
    },
    published: chapter.published,
  };
}
