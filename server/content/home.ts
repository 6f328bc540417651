import type { Kysely } from "kysely";
import { z } from "zod";
import type { Database } from "../db/schema.ts";
import { Invalid } from "../errors.ts";
import { parseInput } from "../validation.ts";
import { type ContentStore, changed, optionalLink } from "./store.ts";

/** The home_page_content table: the hero texts, its two buttons and the newsletter switch. */

interface HomeContentDefault {
  section_key: string;
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
        metadata: JSON.stringify(entry.metadata) as unknown as Record<string, unknown>,
        display_order: index,
      })),
    )
    .onConflict((conflict) => conflict.column("section_key").doNothing())
    .execute();
}

export const HOME_CONTENT_KEYS = HOME_CONTENT_DEFAULTS.map((entry) => entry.section_key);

const homeChangeSchema = z.object({
  sectionKey: z.string().refine((key) => HOME_CONTENT_KEYS.includes(key), "Unknown home page entry"),
  contentValue: z.string().trim().max(5000).optional(),
  isVisible: z.boolean().optional(),
  /** The button's link (metadata.link); "" removes it so the default applies. */
  link: optionalLink.optional(),
  displayOrder: z.coerce.number().int().min(0).max(1000).optional(),
});

export type HomeContentChange = z.input<typeof homeChangeSchema>;

/** Changes some entries of home_page_content in one transaction (missing keys are created). */
export async function updateHomeContent(store: ContentStore, changes: HomeContentChange[]): Promise<void> {
  const entries = changes.map((change, index) => {
    try {
      return parseInput(homeChangeSchema, change);
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      const key = typeof change?.sectionKey === "string" ? change.sectionKey : String(index);
      throw new Invalid(
        Object.fromEntries(Object.entries(error.fields).map(([field, message]) => [`${key}.${field}`, message])),
      );
    }
  });
  await store.db.transaction().execute(async (trx) => {
    const now = new Date().toISOString();
    for (const entry of entries) {
      const current = await trx
        .selectFrom("home_page_content")
        .selectAll()
        .where("section_key", "=", entry.sectionKey)
        .executeTakeFirst();
      const metadata: Record<string, unknown> = { ...(current?.metadata ?? {}) };
      if (entry.link !== undefined) {
        if (entry.link === "") delete metadata.link;
        else metadata.link = entry.link;
      }
      const values = {
        content_value: entry.contentValue ?? current?.content_value ?? "",
        is_visible: entry.isVisible ?? current?.is_visible ?? true,
        metadata: JSON.stringify(metadata) as unknown as Record<string, unknown>,
        display_order: entry.displayOrder ?? current?.display_order ?? HOME_CONTENT_KEYS.indexOf(entry.sectionKey),
        updated_at: now,
      };
      if (current) {
        await trx.updateTable("home_page_content").set(values).where("section_key", "=", entry.sectionKey).execute();
      } else {
        await trx
          .insertInto("home_page_content")
          .values({ section_key: entry.sectionKey, ...values })
          .execute();
      }
    }
  });
  await changed(store);
}
