import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";

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
