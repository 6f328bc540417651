import type { Kysely, Selectable, Transaction } from "kysely";
import type { z } from "zod";
import type { ChapterSectionsTable, Database } from "../db/schema.ts";
import { Invalid } from "../errors.ts";
import { newId } from "../ids.ts";
import { parseInput } from "../validation.ts";
import { chapterExists, markChapterEdited } from "./chapters.ts";
import { orderedIdsField, revisionField } from "./fields.ts";
import {
  assertReorderOf,
  bumpListRevision,
  checkListRevision,
  claimListRevision,
  listKeys,
  type RevisionedList,
  readRevisionedList,
  sameOrder,
} from "./list-revisions.ts";
import { changedColumns, goneError, holdsValues, saveAtRevision } from "./revisions.ts";
import {
  IMAGE_URL_MESSAGE,
  imageOriginRefusal,
  isImageUrl,
  type NewSection,
  newSectionSchema,
  SELECT_CHAPTER_MESSAGE,
  type SectionChanges,
  type SectionType,
  sectionChangesSchema,
} from "./section-input.ts";
import { type ContentStore, writeContent } from "./store.ts";

/**
 * The chapter_sections table: the only module that writes it. A chapter's sections
 * form an ordered list (its revision: list-revisions.ts); they move up or down by
 * swapping order_index with their neighbour, or are reordered all at once.
 */

export interface SectionRecord {
  id: string;
  chapterId: string;
  type: SectionType;
  /** The text, list, code…; for an image section, the image's URL. */
  content: string;
  /** Code and image sections only. */
  caption: string | null;
  /** Code sections only. */
  language: string | null;
  /** Image sections only: the image's text alternative. */
  alt: string | null;
  orderIndex: number;
  revision: number;
}

type SectionRow = Selectable<ChapterSectionsTable>;
type SectionFields = Pick<SectionRow, "type" | "content" | "caption" | "language" | "alt">;

function toSection(row: SectionRow): SectionRecord {
  return {
    id: row.id,
    chapterId: row.chapter_id,
    type: row.type,
    content: row.content,
    caption: row.caption,
    language: row.language,
    alt: row.alt,
    orderIndex: row.order_index,
    revision: row.revision,
  };
}

/**
 * What a section of this type keeps: a caption for code and images, a language for
 * code, alt text for images (the others are saved as null). An image's content is
 * its URL: a path on this site or an http(s) URL, never another scheme, on an origin
 * the pages may show images from (imageOriginRefusal).
 */
function sectionValues(section: SectionFields, imageOrigins: readonly string[] | undefined): SectionFields {
  const { type } = section;
  const content = type === "image" ? section.content.trim() : section.content;
  if (type === "image" && !isImageUrl(content)) throw new Invalid({ content: IMAGE_URL_MESSAGE });
  const refusal = type === "image" ? imageOriginRefusal(content, imageOrigins) : null;
  if (refusal) throw new Invalid({ content: refusal });
  return {
    type,
    content,
    caption: type === "code" || type === "image" ? section.caption : null,
    language: type === "code" ? section.language : null,
    alt: type === "image" ? section.alt : null,
  };
}

/** The section as it is, with the given changes applied. */
function withChanges(
  row: SectionRow,
  changes: Omit<z.output<typeof sectionChangesSchema>, "revision">,
  imageOrigins: readonly string[] | undefined,
): SectionFields {
  return sectionValues(
    {
      type: changes.type ?? row.type,
      content: changes.content ?? row.content,
      caption: changes.caption !== undefined ? changes.caption : row.caption,
      language: changes.language !== undefined ? changes.language : row.language,
      alt: changes.alt !== undefined ? changes.alt : row.alt,
    },
    imageOrigins,
  );
}

async function selectSections(db: Kysely<Database>, chapterId: string): Promise<SectionRow[]> {
  return db
    .selectFrom("chapter_sections")
    .selectAll()
    .where("chapter_id", "=", chapterId)
    .orderBy("order_index")
    .orderBy("id")
    .execute();
}

/** The chapter's sections in order, with the list's revision. */
export async function listSections(db: Kysely<Database>, chapterId: string): Promise<RevisionedList<SectionRecord>> {
  return readRevisionedList(db, listKeys.sections(chapterId), async () =>
    (await selectSections(db, chapterId)).map(toSection),
  );
}

/** Appends a section: highest order_index of the chapter + 1. */
export async function createSection(store: ContentStore, input: NewSection): Promise<SectionRecord> {
  const { chapterId, ...data } = parseInput(newSectionSchema, input);
  const values = sectionValues(data, store.imageOrigins);
  return writeContent(store, async ({ trx, audit }) => {
    if (!(await chapterExists(trx, chapterId))) throw new Invalid({ chapterId: SELECT_CHAPTER_MESSAGE });
    const highest = await trx
      .selectFrom("chapter_sections")
      .select((eb) => eb.fn.max("order_index").as("highest"))
      .where("chapter_id", "=", chapterId)
      .executeTakeFirst();
    const row = await trx
      .insertInto("chapter_sections")
      .values({
        id: newId("section"),
        chapter_id: chapterId,
        ...values,
        order_index: highest?.highest == null ? 0 : Number(highest.highest) + 1,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await bumpListRevision(trx, listKeys.sections(chapterId));
    await markChapterEdited(trx, chapterId);
    await audit({
      action: "section.created",
      entity: "section",
      entityId: row.id,
      details: { chapterId, type: row.type },
    });
    return toSection(row);
  });
}

/** Changes a section at the revision the editor saw. */
export async function updateSection(store: ContentStore, id: string, changes: SectionChanges): Promise<SectionRecord> {
  const { revision, ...data } = parseInput(sectionChangesSchema, changes);
  return writeContent(store, async ({ trx, audit }) => {
    const { row, before } = await saveAtRevision("section", revision, {
      read: () => trx.selectFrom("chapter_sections").selectAll().where("id", "=", id).executeTakeFirst(),
      holds: (current) => holdsValues(current, withChanges(current, data, store.imageOrigins)),
      write: (current) =>
        trx
          .updateTable("chapter_sections")
          .set((eb) => ({ ...withChanges(current, data, store.imageOrigins), revision: eb("revision", "+", 1) }))
          .where("id", "=", id)
          .where("revision", "=", revision)
          .returningAll()
          .executeTakeFirst(),
    });
    if (!before) return toSection(row);
    await markChapterEdited(trx, row.chapter_id);
    await audit({
      action: "section.updated",
      entity: "section",
      entityId: id,
      details: {
        chapterId: row.chapter_id,
        changed: changedColumns(before, row, ["type", "content", "caption", "language", "alt"]),
      },
    });
    return toSection(row);
  });
}

export async function deleteSection(store: ContentStore, id: string): Promise<void> {
  await writeContent(store, async ({ trx, audit }) => {
    const row = await trx
      .deleteFrom("chapter_sections")
      .where("id", "=", id)
      .returning(["chapter_id", "type"])
      .executeTakeFirst();
    if (!row) throw goneError("section");
    await bumpListRevision(trx, listKeys.sections(row.chapter_id));
    await markChapterEdited(trx, row.chapter_id);
    await audit({
      action: "section.deleted",
      entity: "section",
      entityId: id,
      details: { chapterId: row.chapter_id, type: row.type },
    });
  });
}

/**
 * Swaps the section's order_index with its neighbour's (the spec), at the list revision
 * the editor saw. The first cannot move up and the last cannot move down: then
 * nothing changes and false is returned.
 */
export async function moveSection(
  store: ContentStore,
  id: string,
  direction: "up" | "down",
  listRevision: number,
): Promise<boolean> {
  const expected = parseInput(revisionField, listRevision);
  return writeContent(store, async ({ trx, audit }) => {
    const section = await trx.selectFrom("chapter_sections").selectAll().where("id", "=", id).executeTakeFirst();
    if (!section) throw goneError("section");
    const key = listKeys.sections(section.chapter_id);
    await checkListRevision(trx, key, expected);
    const siblings = await selectSections(trx, section.chapter_id);
    const position = siblings.findIndex((sibling) => sibling.id === id);
    const neighbour = siblings[direction === "up" ? position - 1 : position + 1];
    if (!neighbour) return false;
    await claimListRevision(trx, key, expected);
    // Equal order_index values (never made by this module) still swap places by position.
    const [mine, theirs] =
      neighbour.order_index === section.order_index
        ? direction === "up"
          ? [neighbour.order_index, neighbour.order_index + 1]
          : [neighbour.order_index + 1, neighbour.order_index]
        : [neighbour.order_index, section.order_index];
    await setOrderIndex(trx, id, mine);
    await setOrderIndex(trx, neighbour.id, theirs);
    await markChapterEdited(trx, section.chapter_id);
    await audit({
      action: "section.moved",
      entity: "section",
      entityId: id,
      details: { chapterId: section.chapter_id, direction },
    });
    return true;
  });
}

/**
 * Puts the chapter's sections in the given order (drag and drop), at the list revision
 * the editor saw: `orderedIds` must name each of the chapter's sections exactly once,
 * and every order_index becomes its position. Returns the list as it now is.
 */
export async function reorderSections(
  store: ContentStore,
  chapterId: string,
  orderedIds: readonly string[],
  listRevision: number,
): Promise<RevisionedList<SectionRecord>> {
  const wanted = parseInput(orderedIdsField, orderedIds);
  const expected = parseInput(revisionField, listRevision);
  const key = listKeys.sections(chapterId);
  return writeContent(store, async ({ trx, audit }) => {
    if (!(await chapterExists(trx, chapterId))) throw goneError("chapter");
    const currentIds = async () => (await selectSections(trx, chapterId)).map((section) => section.id);
    if (await claimListRevision(trx, key, expected, async () => sameOrder(await currentIds(), wanted))) {
      const rows = await selectSections(trx, chapterId);
      assertReorderOf(
        rows.map((row) => row.id),
        wanted,
      );
      const indexOf = new Map(rows.map((row) => [row.id, row.order_index]));
      for (const [position, sectionId] of wanted.entries()) {
        if (indexOf.get(sectionId) !== position) await setOrderIndex(trx, sectionId, position);
      }
      await markChapterEdited(trx, chapterId);
      await audit({
        action: "section.reordered",
        entity: "section",
        entityId: null,
        details: { chapterId, order: wanted },
      });
    }
    return listSections(trx, chapterId);
  });
}

async function setOrderIndex(trx: Transaction<Database>, id: string, orderIndex: number): Promise<void> {
  await trx.updateTable("chapter_sections").set({ order_index: orderIndex }).where("id", "=", id).execute();
}
