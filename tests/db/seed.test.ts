import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ABOUT_CONTENT_DEFAULTS } from "../../server/content/about.ts";
import { HOME_CONTENT_DEFAULTS } from "../../server/content/home.ts";
import type { DatabaseHandle } from "../../server/db/connection.ts";
import { type Database, toJson } from "../../server/db/schema.ts";
import { prepareDatabase } from "../../server/db/setup.ts";
import { createLogger } from "../../server/logger.ts";
import { NEWSLETTER_SETTING_DEFAULTS } from "../../server/newsletter/settings.ts";
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from "../helpers/databases.ts";

const logger = createLogger({ level: "silent" });

const HOME_KEYS = [
  "hero_headline",
  "hero_tagline",
  "hero_description",
  "button_primary_text",
  "button_secondary_text",
  "newsletter_section_visible",
];
const ABOUT_KEYS = ["about_name", "about_title", "about_bio_1", "about_bio_2", "about_bio_3", "about_mission"];
const SITE_SETTING_KEYS = ["linkedin_url", "resume_url"];
const NEWSLETTER_KEYS = ["auto_send_enabled", "welcome_email_subject", "welcome_email_body"];

async function rowCounts(db: Kysely<Database>) {
  const count = async (table: "home_page_content" | "site_content" | "site_settings" | "newsletter_settings") =>
    (
      await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n;
  return {
    home_page_content: await count("home_page_content"),
    site_content: await count("site_content"),
    site_settings: await count("site_settings"),
    newsletter_settings: await count("newsletter_settings"),
  };
}

const homeValue = async (db: Kysely<Database>, key: string) =>
  (await db.selectFrom("home_page_content").select("content_value").where("section_key", "=", key).executeTakeFirst())
    ?.content_value;
const siteSetting = async (db: Kysely<Database>, key: string) =>
  (await db.selectFrom("site_settings").select("setting_value").where("setting_key", "=", key).executeTakeFirst())
    ?.setting_value;
const newsletterSetting = async (db: Kysely<Database>, key: string) =>
  (await db.selectFrom("newsletter_settings").select("setting_value").where("setting_key", "=", key).executeTakeFirst())
    ?.setting_value;

describe.each(TEST_DIALECTS)("default content seeded by prepareDatabase on %s", (dialect) => {
  let testDb: TestDatabase;
  let handle: DatabaseHandle;

  /** Closes the current handle and prepares the database again, as a restart does. */
  async function restart(): Promise<void> {
    await handle.close();
    handle = await prepareDatabase(testDb.config, logger);
  }

  beforeAll(async () => {
    testDb = await createTestDatabase(dialect);
    handle = await prepareDatabase(testDb.config, logger);
  });

  afterAll(async () => {
    await handle?.close();
    await testDb?.drop();
  });

  it("seeds every home page key, the two buttons with their links", async () => {
    const rows = await handle.db
      .selectFrom("home_page_content")
      .select(["section_key", "content_value", "is_visible", "metadata"])
      .orderBy("display_order")
      .execute();
    expect(rows.map((row) => row.section_key)).toEqual(HOME_KEYS);
    for (const row of rows) {
      expect(row.content_value).not.toBe("");
      expect(row.is_visible).toBe(true);
    }
    const byKey = Object.fromEntries(rows.map((row) => [row.section_key, row]));
    expect(byKey.button_primary_text?.metadata).toEqual({ link: "/projects" });
    expect(byKey.button_secondary_text?.metadata).toEqual({ link: "/blog" });
    expect(byKey.hero_headline?.metadata).toEqual({});
    expect(byKey.newsletter_section_visible?.content_value).toBe("true");
    expect(rows.map(({ section_key, content_value }) => ({ section_key, content_value }))).toEqual(
      HOME_CONTENT_DEFAULTS.map(({ section_key, content_value }) => ({ section_key, content_value })),
    );
  });

  it("seeds every About page key", async () => {
    const rows = await handle.db.selectFrom("site_content").select(["key", "value"]).execute();
    expect(rows.map((row) => row.key).sort()).toEqual([...ABOUT_KEYS].sort());
    expect(Object.fromEntries(rows.map((row) => [row.key, row.value]))).toEqual(ABOUT_CONTENT_DEFAULTS);
    for (const row of rows) expect(row.value.trim()).not.toBe("");
  });

  it("seeds the site settings", async () => {
    const rows = await handle.db
      .selectFrom("site_settings")
      .select(["setting_key", "setting_value"])
      .orderBy("setting_key")
      .execute();
    expect(rows).toEqual([
      { setting_key: "linkedin_url", setting_value: "https://www.linkedin.com/" },
      { setting_key: "resume_url", setting_value: "" },
    ]);
    expect(rows.map((row) => row.setting_key)).toEqual(SITE_SETTING_KEYS);
  });

  it("seeds the newsletter settings, automatic sending on", async () => {
    const rows = await handle.db.selectFrom("newsletter_settings").select(["setting_key", "setting_value"]).execute();
    expect(rows.map((row) => row.setting_key).sort()).toEqual([...NEWSLETTER_KEYS].sort());
    expect(Object.fromEntries(rows.map((row) => [row.setting_key, row.setting_value]))).toEqual(
      NEWSLETTER_SETTING_DEFAULTS,
    );
    expect(await newsletterSetting(handle.db, "auto_send_enabled")).toBe("true");
    expect(await newsletterSetting(handle.db, "welcome_email_subject")).not.toBe("");
    expect(await newsletterSetting(handle.db, "welcome_email_body")).not.toBe("");
  });

  it("keeps what an admin changed when it runs again, and adds no rows", async () => {
    const countsBefore = await rowCounts(handle.db);
    expect(countsBefore).toEqual({ home_page_content: 6, site_content: 6, site_settings: 2, newsletter_settings: 3 });

    await handle.db
      .updateTable("home_page_content")
      .set({ content_value: "Changed headline", is_visible: false })
      .where("section_key", "=", "hero_headline")
      .execute();
    await handle.db
      .updateTable("home_page_content")
      .set({ metadata: toJson({ link: "/chapters" }) })
      .where("section_key", "=", "button_primary_text")
      .execute();
    await handle.db
      .updateTable("site_settings")
      .set({ setting_value: "https://www.linkedin.com/in/someone" })
      .where("setting_key", "=", "linkedin_url")
      .execute();
    await handle.db
      .updateTable("newsletter_settings")
      .set({ setting_value: "false" })
      .where("setting_key", "=", "auto_send_enabled")
      .execute();
    await handle.db
      .updateTable("site_content")
      .set({ value: "Grace Hopper" })
      .where("key", "=", "about_name")
      .execute();

    await restart();

    expect(await homeValue(handle.db, "hero_headline")).toBe("Changed headline");
    const headline = await handle.db
      .selectFrom("home_page_content")
      .select("is_visible")
      .where("section_key", "=", "hero_headline")
      .executeTakeFirstOrThrow();
    expect(headline.is_visible).toBe(false);
    const button = await handle.db
      .selectFrom("home_page_content")
      .select("metadata")
      .where("section_key", "=", "button_primary_text")
      .executeTakeFirstOrThrow();
    expect(button.metadata).toEqual({ link: "/chapters" });
    expect(await siteSetting(handle.db, "linkedin_url")).toBe("https://www.linkedin.com/in/someone");
    expect(await newsletterSetting(handle.db, "auto_send_enabled")).toBe("false");
    const about = await handle.db
      .selectFrom("site_content")
      .select("value")
      .where("key", "=", "about_name")
      .executeTakeFirst();
    expect(about?.value).toBe("Grace Hopper");
    expect(await rowCounts(handle.db)).toEqual(countsBefore);
  });

  it("puts back a deleted key with its default, leaving the others alone", async () => {
    await handle.db.deleteFrom("home_page_content").where("section_key", "=", "hero_tagline").execute();
    await handle.db.deleteFrom("site_settings").where("setting_key", "=", "resume_url").execute();
    await handle.db.deleteFrom("newsletter_settings").where("setting_key", "=", "welcome_email_subject").execute();
    await handle.db.deleteFrom("site_content").where("key", "=", "about_mission").execute();
    expect(await rowCounts(handle.db)).toEqual({
      home_page_content: 5,
      site_content: 5,
      site_settings: 1,
      newsletter_settings: 2,
    });

    await restart();

    expect(await rowCounts(handle.db)).toEqual({
      home_page_content: 6,
      site_content: 6,
      site_settings: 2,
      newsletter_settings: 3,
    });
    const tagline = HOME_CONTENT_DEFAULTS.find((entry) => entry.section_key === "hero_tagline")?.content_value;
    expect(await homeValue(handle.db, "hero_tagline")).toBe(tagline);
    expect(await siteSetting(handle.db, "resume_url")).toBe("");
    expect(await newsletterSetting(handle.db, "welcome_email_subject")).toBe(
      NEWSLETTER_SETTING_DEFAULTS.welcome_email_subject,
    );
    // Values changed in the previous test are still there.
    expect(await homeValue(handle.db, "hero_headline")).toBe("Changed headline");
    expect(await newsletterSetting(handle.db, "auto_send_enabled")).toBe("false");
  });
});
