import type { Kysely, Selectable } from "kysely";
import type {
  CERTIFICATION_STATUSES,
  CertificationsTable,
  Database,
  SkillsTable,
  TIMELINE_CATEGORIES,
  TimelineEventsTable,
} from "../db/schema.ts";
import { newId } from "../ids.ts";
import { parseInput } from "../validation.ts";
import { dynamicTables } from "./dynamic-tables.ts";
import { deleteRow, type EditedTable, updateRowAtRevision } from "./edited-rows.ts";
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
import {
  type CertificationChanges,
  certificationChangesSchema,
  type NewCertification,
  type NewSkill,
  type NewTimelineEvent,
  newCertificationSchema,
  newSkillSchema,
  newTimelineEventSchema,
  type SkillChanges,
  skillChangesSchema,
  type TimelineEventChanges,
  timelineEventChangesSchema,
} from "./profile-input.ts";
import { goneError } from "./revisions.ts";
import { type ContentStore, nextOrderIndex, writeContent } from "./store.ts";

/**
 * The certifications, skills and timeline_events tables (the About page's lists): the
 * only module that writes them. New items go last (highest order_index + 1); an item
 * moves up by one, swapping with the previous one, and every item's order_index is
 * rewritten to its position (the spec); a drag-and-drop reorder does the same for any
 * new order. Moves and reorders name the list revision the editor saw.
 */

export interface CertificationRecord {
  id: string;
  name: string;
  organization: string;
  description: string;
  date: string;
  status: (typeof CERTIFICATION_STATUSES)[number];
  orderIndex: number;
  revision: number;
}

export interface SkillRecord {
  id: string;
  name: string;
  /** 0 to 100 in steps of 5, shown as a percentage. */
  level: number;
  category: string | null;
  orderIndex: number;
  revision: number;
}

export interface TimelineEventRecord {
  id: string;
  date: string;
  title: string;
  description: string;
  category: (typeof TIMELINE_CATEGORIES)[number];
  orderIndex: number;
  revision: number;
}

/** One of the three lists: its table, what messages call an item, and its audit entity. */
interface ListKind extends EditedTable {
  table: "certifications" | "skills" | "timeline_events";
  idPrefix: string;
  key: string;
}

const CERTIFICATIONS: ListKind = {
  table: "certifications",
  thing: "certification",
  entity: "certification",
  idPrefix: "cert",
  key: listKeys.certifications,
  label: "name",
};
const SKILLS: ListKind = {
  table: "skills",
  thing: "skill",
  entity: "skill",
  idPrefix: "skill",
  key: listKeys.skills,
  label: "name",
};
const TIMELINE_EVENTS: ListKind = {
  table: "timeline_events",
  thing: "timeline event",
  entity: "timeline-event",
  idPrefix: "event",
  key: listKeys.timelineEvents,
  label: "title",
};

interface OrderedRow {
  id: string;
  order_index: number;
  revision: number;
}

const toCertification = (row: Selectable<CertificationsTable>): CertificationRecord => ({
  id: row.id,
  name: row.name,
  organization: row.organization,
  description: row.description,
  date: row.date,
  status: row.status,
  orderIndex: row.order_index,
  revision: row.revision,
});
const toSkill = (row: Selectable<SkillsTable>): SkillRecord => ({
  id: row.id,
  name: row.name,
  level: row.level,
  category: row.category,
  orderIndex: row.order_index,
  revision: row.revision,
});
const toEvent = (row: Selectable<TimelineEventsTable>): TimelineEventRecord => ({
  id: row.id,
  date: row.date,
  title: row.title,
  description: row.description,
  category: row.category,
  orderIndex: row.order_index,
  revision: row.revision,
});

// The three tables share these operations; Kysely cannot type a query over a union of
// tables, so they run on dynamic-tables.ts's view and the callers map rows back.

async function selectOrdered<Row extends OrderedRow>(db: Kysely<Database>, kind: ListKind): Promise<Row[]> {
  return (await dynamicTables(db)
    .selectFrom(kind.table)
    .selectAll()
    .orderBy("order_index")
    .orderBy("id")
    .execute()) as Row[];
}

async function listOrdered<Row extends OrderedRow, Item>(
  db: Kysely<Database>,
  kind: ListKind,
  toItem: (row: Row) => Item,
): Promise<RevisionedList<Item>> {
  return readRevisionedList(db, kind.key, async () => (await selectOrdered<Row>(db, kind)).map(toItem));
}

async function insertLast<Row extends OrderedRow>(
  store: ContentStore,
  kind: ListKind,
  values: Record<string, unknown>,
): Promise<Row> {
  return writeContent(store, async ({ trx, audit }) => {
    const order_index = await nextOrderIndex(trx, kind.table);
    const row = (await dynamicTables(trx)
      .insertInto(kind.table)
      .values({ id: newId(kind.idPrefix), ...values, order_index })
      .returningAll()
      .executeTakeFirstOrThrow()) as Row;
    await bumpListRevision(trx, kind.key);
    const details = { [kind.label]: values[kind.label] };
    await audit({ action: `${kind.entity}.created`, entity: kind.entity, entityId: row.id, details });
    return row;
  });
}

/** An item leaves its list, which gets a new revision. */
const deleteItem = (store: ContentStore, kind: ListKind, id: string) =>
  deleteRow(store, kind, id, ({ trx }) => bumpListRevision(trx, kind.key));

/** Every order_index becomes the item's position in `ids`. */
async function writePositions(trx: Kysely<Database>, kind: ListKind, rows: OrderedRow[], ids: readonly string[]) {
  const indexOf = new Map(rows.map((row) => [row.id, row.order_index]));
  for (const [position, id] of ids.entries()) {
    if (indexOf.get(id) !== position) {
      await trx.updateTable(kind.table).set({ order_index: position }).where("id", "=", id).execute();
    }
  }
}

/** Swaps the item with the previous one and rewrites every order_index to its position; false for the first. */
async function moveUp(store: ContentStore, kind: ListKind, id: string, listRevision: number): Promise<boolean> {
  const expected = parseInput(revisionField, listRevision);
  return writeContent(store, async ({ trx, audit }) => {
    const rows = await selectOrdered(trx, kind);
    const position = rows.findIndex((row) => row.id === id);
    if (position < 0) throw goneError(kind.thing);
    await checkListRevision(trx, kind.key, expected);
    if (position === 0) return false;
    await claimListRevision(trx, kind.key, expected);
    const ids = rows.map((row) => row.id);
    [ids[position - 1], ids[position]] = [ids[position]!, ids[position - 1]!];
    await writePositions(trx, kind, rows, ids);
    await audit({ action: `${kind.entity}.moved`, entity: kind.entity, entityId: id, details: { direction: "up" } });
    return true;
  });
}

/**
 * Puts the list in the given order (drag and drop): `orderedIds` must name each item
 * exactly once, and every order_index becomes its position. Returns the list as it now is.
 */
async function reorder<Row extends OrderedRow, Item>(
  store: ContentStore,
  kind: ListKind,
  orderedIds: readonly string[],
  listRevision: number,
  toItem: (row: Row) => Item,
): Promise<RevisionedList<Item>> {
  const wanted = parseInput(orderedIdsField, orderedIds);
  const expected = parseInput(revisionField, listRevision);
  return writeContent(store, async ({ trx, audit }) => {
    const currentIds = async () => (await selectOrdered(trx, kind)).map((row) => row.id);
    if (await claimListRevision(trx, kind.key, expected, async () => sameOrder(await currentIds(), wanted))) {
      const rows = await selectOrdered(trx, kind);
      assertReorderOf(
        rows.map((row) => row.id),
        wanted,
      );
      await writePositions(trx, kind, rows, wanted);
      await audit({
        action: `${kind.entity}.reordered`,
        entity: kind.entity,
        entityId: null,
        details: { order: wanted },
      });
    }
    return listOrdered(trx, kind, toItem);
  });
}

export const listCertifications = (db: Kysely<Database>) => listOrdered(db, CERTIFICATIONS, toCertification);
export const createCertification = async (store: ContentStore, input: NewCertification) =>
  toCertification(await insertLast(store, CERTIFICATIONS, parseInput(newCertificationSchema, input)));
export const updateCertification = async (store: ContentStore, id: string, changes: CertificationChanges) => {
  const { revision, ...values } = parseInput(certificationChangesSchema, changes);
  return toCertification(await updateRowAtRevision(store, CERTIFICATIONS, id, revision, values));
};
export const deleteCertification = (store: ContentStore, id: string) => deleteItem(store, CERTIFICATIONS, id);
export const moveCertificationUp = (store: ContentStore, id: string, listRevision: number) =>
  moveUp(store, CERTIFICATIONS, id, listRevision);
export const reorderCertifications = (store: ContentStore, orderedIds: readonly string[], listRevision: number) =>
  reorder(store, CERTIFICATIONS, orderedIds, listRevision, toCertification);

export const listSkills = (db: Kysely<Database>) => listOrdered(db, SKILLS, toSkill);
export const createSkill = async (store: ContentStore, input: NewSkill) =>
  toSkill(await insertLast(store, SKILLS, parseInput(newSkillSchema, input)));
export const updateSkill = async (store: ContentStore, id: string, changes: SkillChanges) => {
  const { revision, ...values } = parseInput(skillChangesSchema, changes);
  return toSkill(await updateRowAtRevision(store, SKILLS, id, revision, values));
};
export const deleteSkill = (store: ContentStore, id: string) => deleteItem(store, SKILLS, id);
export const moveSkillUp = (store: ContentStore, id: string, listRevision: number) =>
  moveUp(store, SKILLS, id, listRevision);
export const reorderSkills = (store: ContentStore, orderedIds: readonly string[], listRevision: number) =>
  reorder(store, SKILLS, orderedIds, listRevision, toSkill);

export const listTimelineEvents = (db: Kysely<Database>) => listOrdered(db, TIMELINE_EVENTS, toEvent);
export const createTimelineEvent = async (store: ContentStore, input: NewTimelineEvent) =>
  toEvent(await insertLast(store, TIMELINE_EVENTS, parseInput(newTimelineEventSchema, input)));
export const updateTimelineEvent = async (store: ContentStore, id: string, changes: TimelineEventChanges) => {
  const { revision, ...values } = parseInput(timelineEventChangesSchema, changes);
  return toEvent(await updateRowAtRevision(store, TIMELINE_EVENTS, id, revision, values));
};
export const deleteTimelineEvent = (store: ContentStore, id: string) => deleteItem(store, TIMELINE_EVENTS, id);
export const moveTimelineEventUp = (store: ContentStore, id: string, listRevision: number) =>
  moveUp(store, TIMELINE_EVENTS, id, listRevision);
export const reorderTimelineEvents = (store: ContentStore, orderedIds: readonly string[], listRevision: number) =>
  reorder(store, TIMELINE_EVENTS, orderedIds, listRevision, toEvent);
