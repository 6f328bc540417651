import type { Kysely, Selectable } from "kysely";
import { z } from "zod";
import {
  CERTIFICATION_STATUSES,
  type CertificationsTable,
  type Database,
  type SkillsTable,
  TIMELINE_CATEGORIES,
  type TimelineEventsTable,
} from "../db/schema.ts";
import { NotFound } from "../errors.ts";
import { newId } from "../ids.ts";
import { parseInput } from "../validation.ts";
import { type ContentStore, changed, nextOrderIndex } from "./store.ts";

/**
 * The certifications, skills and timeline_events tables (the About page's lists): the
 * only module that writes them. New items go last (highest order_index + 1); an item
 * moves up by one, swapping with the previous one, and every item's order_index is
 * rewritten to its position (spec §4).
 */

type OrderedTable = "certifications" | "skills" | "timeline_events";

export interface CertificationRecord {
  id: string;
  name: string;
  organization: string;
  description: string;
  date: string;
  status: (typeof CERTIFICATION_STATUSES)[number];
  orderIndex: number;
}

export interface SkillRecord {
  id: string;
  name: string;
  level: number;
  category: string | null;
  orderIndex: number;
}

export interface TimelineEventRecord {
  id: string;
  date: string;
  title: string;
  description: string;
  category: (typeof TIMELINE_CATEGORIES)[number];
  orderIndex: number;
}

const name = z.string({ error: "Name is required" }).trim().min(1, "Name is required").max(200);
const shortText = z.string().trim().max(200);
const longText = z.string().trim().max(2000);

const certificationFields = {
  name,
  organization: shortText,
  description: longText,
  date: shortText,
  status: z.enum(CERTIFICATION_STATUSES, { error: "Choose a status" }),
};
const newCertificationSchema = z.object({
  name,
  organization: shortText.default(""),
  description: longText.default(""),
  date: shortText.default(""),
  status: certificationFields.status.default("completed"),
});
const certificationChangesSchema = z.object(certificationFields).partial();

const skillFields = {
  name,
  level: z.coerce
    .number({ error: "Level must be a number from 0 to 100" })
    .int("Level must be a whole number")
    .min(0, "Level must be between 0 and 100")
    .max(100, "Level must be between 0 and 100"),
  category: shortText.nullish().transform((value) => (value ? value : null)),
};
const newSkillSchema = z.object({ ...skillFields, level: skillFields.level.default(50) });
const skillChangesSchema = z.object(skillFields).partial();

const eventFields = {
  date: z.string({ error: "Date is required" }).trim().min(1, "Date is required").max(50),
  title: z.string({ error: "Title is required" }).trim().min(1, "Title is required").max(200),
  description: longText,
  category: z.enum(TIMELINE_CATEGORIES, { error: "Choose a category" }),
};
const newEventSchema = z.object({
  ...eventFields,
  description: longText.default(""),
  category: eventFields.category.default("project"),
});
const eventChangesSchema = z.object(eventFields).partial();

export type NewCertification = z.input<typeof newCertificationSchema>;
export type CertificationChanges = z.input<typeof certificationChangesSchema>;
export type NewSkill = z.input<typeof newSkillSchema>;
export type SkillChanges = z.input<typeof skillChangesSchema>;
export type NewTimelineEvent = z.input<typeof newEventSchema>;
export type TimelineEventChanges = z.input<typeof eventChangesSchema>;

const toCertification = (row: Selectable<CertificationsTable>): CertificationRecord => ({
  id: row.id,
  name: row.name,
  organization: row.organization,
  description: row.description,
  date: row.date,
  status: row.status,
  orderIndex: row.order_index,
});
const toSkill = (row: Selectable<SkillsTable>): SkillRecord => ({
  id: row.id,
  name: row.name,
  level: row.level,
  category: row.category,
  orderIndex: row.order_index,
});
const toEvent = (row: Selectable<TimelineEventsTable>): TimelineEventRecord => ({
  id: row.id,
  date: row.date,
  title: row.title,
  description: row.description,
  category: row.category,
  orderIndex: row.order_index,
});

/** Drops the keys whose value is undefined, so that a partial update leaves them alone. */
function defined<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}

async function insertLast<Row>(store: ContentStore, table: OrderedTable, prefix: string, values: object): Promise<Row> {
  const row = await store.db.transaction().execute(async (trx) => {
    const order_index = await nextOrderIndex(trx, table);
    return (trx as Kysely<any>)
      .insertInto(table)
      .values({ id: newId(prefix), ...values, order_index })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  await changed(store);
  return row as Row;
}

async function updateRow<Row>(store: ContentStore, table: OrderedTable, entity: string, id: string, values: object) {
  const db = store.db as Kysely<any>;
  const row =
    Object.keys(values).length > 0
      ? await db.updateTable(table).set(values).where("id", "=", id).returningAll().executeTakeFirst()
      : await db.selectFrom(table).selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) throw new NotFound(`This ${entity} no longer exists.`);
  await changed(store);
  return row as Row;
}

async function deleteRow(store: ContentStore, table: OrderedTable, entity: string, id: string): Promise<void> {
  const result = await store.db.deleteFrom(table).where("id", "=", id).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new NotFound(`This ${entity} no longer exists.`);
  await changed(store);
}

async function listOrdered<Row>(db: Kysely<Database>, table: OrderedTable): Promise<Row[]> {
  return (await (db as Kysely<any>)
    .selectFrom(table)
    .selectAll()
    .orderBy("order_index")
    .orderBy("id")
    .execute()) as Row[];
}

/** Swaps the item with the previous one and rewrites every order_index to its position; false for the first. */
async function moveUp(store: ContentStore, table: OrderedTable, entity: string, id: string): Promise<boolean> {
  const moved = await store.db.transaction().execute(async (trx) => {
    const rows = await listOrdered<{ id: string; order_index: number }>(trx, table);
    const position = rows.findIndex((row) => row.id === id);
    if (position < 0) throw new NotFound(`This ${entity} no longer exists.`);
    if (position === 0) return false;
    [rows[position - 1], rows[position]] = [rows[position]!, rows[position - 1]!];
    for (const [index, row] of rows.entries()) {
      if (row.order_index !== index) {
        await trx.updateTable(table).set({ order_index: index }).where("id", "=", row.id).execute();
      }
    }
    return true;
  });
  if (moved) await changed(store);
  return moved;
}

export const listCertifications = async (db: Kysely<Database>) =>
  (await listOrdered<Selectable<CertificationsTable>>(db, "certifications")).map(toCertification);
export const createCertification = async (store: ContentStore, input: NewCertification) =>
  toCertification(await insertLast(store, "certifications", "cert", parseInput(newCertificationSchema, input)));
export const updateCertification = async (store: ContentStore, id: string, changes: CertificationChanges) =>
  toCertification(
    await updateRow(
      store,
      "certifications",
      "certification",
      id,
      defined(parseInput(certificationChangesSchema, changes)),
    ),
  );
export const deleteCertification = (store: ContentStore, id: string) =>
  deleteRow(store, "certifications", "certification", id);
export const moveCertificationUp = (store: ContentStore, id: string) =>
  moveUp(store, "certifications", "certification", id);

export const listSkills = async (db: Kysely<Database>) =>
  (await listOrdered<Selectable<SkillsTable>>(db, "skills")).map(toSkill);
export const createSkill = async (store: ContentStore, input: NewSkill) =>
  toSkill(await insertLast(store, "skills", "skill", parseInput(newSkillSchema, input)));
export const updateSkill = async (store: ContentStore, id: string, changes: SkillChanges) =>
  toSkill(await updateRow(store, "skills", "skill", id, defined(parseInput(skillChangesSchema, changes))));
export const deleteSkill = (store: ContentStore, id: string) => deleteRow(store, "skills", "skill", id);
export const moveSkillUp = (store: ContentStore, id: string) => moveUp(store, "skills", "skill", id);

export const listTimelineEvents = async (db: Kysely<Database>) =>
  (await listOrdered<Selectable<TimelineEventsTable>>(db, "timeline_events")).map(toEvent);
export const createTimelineEvent = async (store: ContentStore, input: NewTimelineEvent) =>
  toEvent(await insertLast(store, "timeline_events", "event", parseInput(newEventSchema, input)));
export const updateTimelineEvent = async (store: ContentStore, id: string, changes: TimelineEventChanges) =>
  toEvent(
    await updateRow(store, "timeline_events", "timeline event", id, defined(parseInput(eventChangesSchema, changes))),
  );
export const deleteTimelineEvent = (store: ContentStore, id: string) =>
  deleteRow(store, "timeline_events", "timeline event", id);
export const moveTimelineEventUp = (store: ContentStore, id: string) =>
  moveUp(store, "timeline_events", "timeline event", id);
