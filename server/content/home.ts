import type { Kysely, Selectable } from "kysely";
import { type Database, type HomePageContentTable, toJson } from "../db/schema.ts";
import { parseInput } from "../validation.ts";
import {
  HOME_CONTENT_KEYS,
  type HomeContentChanges,
  type HomeContentKey,
  homeContentChangesSchema,
} from "./home-input.ts";
import { saveAtRevision } from "./revisions.ts";
import { type ContentStore, writeContent } from "./store.ts";

/**
 * The home_page_content table: the hero texts, its two buttons (text, and a link in
 * metadata.link) and the newsletter switch. The Home Page Editor saves them together,
 * each entry at the revision the editor saw: all of them, or none.
 */

interface HomeContentDefault {
  section_key: HomeContentKey;
  content_value: string;
  metadata: Record<string, unknown>;
}

export const HOME_CONTENT_DEFAULTS: readonly HomeContentDefault[] = [
  { section_key: "hero_headline", content_value: "Securing the cloud, one lesson at a time", metadata: {} },
  {
    section_key: "hero_tagline",
    content_value: "Cybersecurity engineer · vulnerability management · cloud security",
    metadata: {},
  },
  {
    section_key: "hero_description",
    content_value:
      "Hands-on projects, step-by-step courses and practical tips from real security work, written for people who defend systems for a living.",
    metadata: {},
  },
  { section_key: "button_primary_text", content_value: "Explore Projects", metadata: { link: "/projects" } },
  { section_key: "button_secondary_text", content_value: "Read Tips & Tricks", metadata: { link: "/blog" } },
  { section_key: "newsletter_section_visible", content_value: "true", metadata: {} },
];

/** Inserts the keys that are missing; never overwrites what an admin changed. */
export async function seedHomeContent(db: Kysely<Database>): Promise<void> {
  await db
    .insertInto("home_page_content")
    .values(
      HOME_CONTENT_DEFAULTS.map((entry, index) => ({
        section_key: entry.section_key,
        content_value: entry.content_value,
        is_visible: true,
        metadata: toJson(entry.metadata),
        display_order: index,
      })),
    )
    .onConflict((conflict) => conflict.column("section_key").doNothing())
    .execute();
}

const BUTTON_KEYS: ReadonlySet<HomeContentKey> = new Set(["button_primary_text", "button_secondary_text"]);

/** One entry as the Home Page Editor shows it. */
export interface HomeEditorEntry {
  value: string;
  /** Buttons only (null for the other entries): the link, "" when the default applies (/projects, /blog). */
  link: string | null;
  /** 0 for an entry that was never saved. */
  revision: number;
}

export type HomeEditorContent = Record<HomeContentKey, HomeEditorEntry>;

type HomeRow = Selectable<HomePageContentTable>;

/** An entry as stored, or as it would be before its first save. */
interface StoredEntry extends HomeEditorEntry {
  row: HomeRow | undefined;
}

function toEditorEntry(key: HomeContentKey, row: HomeRow | undefined): HomeEditorEntry {
  const fallback = HOME_CONTENT_DEFAULTS.find((entry) => entry.section_key === key);
  const metadata = row?.metadata ?? fallback?.metadata ?? {};
  return {
    value: row?.content_value ?? fallback?.content_value ?? "",
    link: BUTTON_KEYS.has(key) ? (typeof metadata.link === "string" ? metadata.link : "") : null,
    revision: row?.revision ?? 0,
  };
}

async function readEntry(db: Kysely<Database>, key: HomeContentKey): Promise<StoredEntry> {
  const row = await db.selectFrom("home_page_content").selectAll().where("section_key", "=", key).executeTakeFirst();
  return { ...toEditorEntry(key, row), row };
}

/** Every entry of the Home Page Editor with its revision. */
export async function getHomeContentForEditor(db: Kysely<Database>): Promise<HomeEditorContent> {
  const rows = await db.selectFrom("home_page_content").selectAll().execute();
  const byKey = new Map(rows.map((row) => [row.section_key, row]));
  const content = {} as HomeEditorContent;
  for (const key of HOME_CONTENT_KEYS) content[key] = toEditorEntry(key, byKey.get(key));
  return content;
}

/**
 * Saves the Home Page Editor's entries in one transaction. Any entry changed by
 * someone else since the editor opened it refuses the whole save (Conflict), unless it
 * already holds what is being saved. Returns the entries as they now are.
 */
export async function updateHomeContent(store: ContentStore, changes: HomeContentChanges): Promise<HomeEditorContent> {
  const data = parseInput(homeContentChangesSchema, changes);
  return writeContent(store, async ({ trx, audit }) => {
    const saved: HomeContentKey[] = [];
    for (const key of HOME_CONTENT_KEYS) {
      const change = data[key];
      if (!change) continue;
      const link = "link" in change ? change.link : undefined;
      const { before } = await saveAtRevision("home page", change.revision, {
        read: () => readEntry(trx, key),
        holds: (current) => current.value === change.value && (link === undefined || current.link === link),
        async write(current) {
          const metadata: Record<string, unknown> = { ...(current.row?.metadata ?? {}) };
          if (link === "") delete metadata.link;
          else if (link !== undefined) metadata.link = link;
          const values = {
            content_value: change.value,
            metadata: toJson(metadata),
            updated_at: new Date().toISOString(),
          };
          const row = current.row
            ? await trx
                .updateTable("home_page_content")
                .set((eb) => ({ ...values, revision: eb("revision", "+", 1) }))
                .where("section_key", "=", key)
                .where("revision", "=", change.revision)
                .returningAll()
                .executeTakeFirst()
            : await trx
                .insertInto("home_page_content")
                .values({ section_key: key, ...values, display_order: HOME_CONTENT_KEYS.indexOf(key) })
                .onConflict((conflict) => conflict.column("section_key").doNothing())
                .returningAll()
                .executeTakeFirst();
          return row && { ...toEditorEntry(key, row), row };
        },
      });
      if (before) saved.push(key);
    }
    if (saved.length > 0) {
      await audit({ action: "home-page.updated", entity: "home-page", entityId: null, details: { saved } });
    }
    return getHomeContentForEditor(trx);
  });
}
