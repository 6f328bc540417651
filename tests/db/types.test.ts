import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../../server/db/connection.ts";
import { migrateToLatest } from "../../server/db/migrate.ts";
import { toJson } from "../../server/db/schema.ts";
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from "../helpers/databases.ts";

/**
 * Both databases must hand the application the same JavaScript values: booleans,
 * numbers (counts included), ISO-8601 UTC timestamps with milliseconds, parsed JSON.
 * Every dialect is compared against the same literals below.
 */

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PUBLISHED_AT = "2025-03-04T05:06:07.891Z";
const AUDIT_AT = "2024-12-31T23:59:59.001Z";

const EXPECTED_CHAPTER = {
  id: "chapter-1-types",
  slug: "types",
  title: "Types",
  number: 7,
  order_index: 3,
  published: true,
  created_at: expect.stringMatching(ISO_TIMESTAMP),
  updated_at: expect.stringMatching(ISO_TIMESTAMP),
  published_at: PUBLISHED_AT,
  revision: 1,
};

const EXPECTED_RESOURCE = {
  id: "resource-1-types",
  name: "OWASP",
  description: "",
  url: "https://owasp.org",
  category: "Learning",
  featured: false,
  order_index: 0,
  created_at: expect.stringMatching(ISO_TIMESTAMP),
  revision: 1,
};

const EXPECTED_HOME = {
  section_key: "hero_link",
  content_value: "Go",
  is_visible: true,
  metadata: { link: "/x" },
  display_order: 0,
  updated_at: expect.stringMatching(ISO_TIMESTAMP),
  revision: 1,
};

const EXPECTED_AUDIT = [
  {
    id: "audit-1-types",
    at: AUDIT_AT,
    user_id: null,
    action: "chapter.update",
    entity: "chapter",
    entity_id: "chapter-1-types",
    details: { fields: ["title", "published"], published: true, count: 2, nested: { a: null } },
  },
  {
    id: "audit-2-types",
    at: expect.stringMatching(ISO_TIMESTAMP),
    user_id: null,
    action: "chapter.delete",
    entity: "chapter",
    entity_id: null,
    details: {},
  },
];

describe.each(TEST_DIALECTS)("JavaScript types read back from %s", (dialect) => {
  let testDb: TestDatabase;
  let handle: DatabaseHandle;
  const before = new Date(Date.now() - 60_000).toISOString();

  beforeAll(async () => {
    testDb = await createTestDatabase(dialect);
    handle = openDatabase(testDb.config);
    await migrateToLatest(handle.db, handle.dialect);
    const { db } = handle;
    await db
      .insertInto("chapters")
      .values({
        id: "chapter-1-types",
        slug: "types",
        title: "Types",
        number: 7,
        order_index: 3,
        published: true,
        published_at: PUBLISHED_AT,
      })
      .execute();
    await db
      .insertInto("chapters")
      .values({ id: "chapter-2-draft", slug: "draft", title: "Draft", number: 8, order_index: 4, published: false })
      .execute();
    await db
      .insertInto("resources")
      .values({ id: "resource-1-types", name: "OWASP", url: "https://owasp.org", featured: false })
      .execute();
    await db
      .insertInto("home_page_content")
      .values({ section_key: "hero_link", content_value: "Go", metadata: toJson({ link: "/x" }) })
      .execute();
    await db
      .insertInto("audit_log")
      .values([
        {
          id: "audit-1-types",
          at: AUDIT_AT,
          action: "chapter.update",
          entity: "chapter",
          entity_id: "chapter-1-types",
          details: toJson({ fields: ["title", "published"], published: true, count: 2, nested: { a: null } }),
        },
      ])
      .execute();
    await db
      .insertInto("audit_log")
      .values({ id: "audit-2-types", action: "chapter.delete", entity: "chapter" })
      .execute();
  });

  afterAll(async () => {
    await handle?.close();
    await testDb?.drop();
  });

  it("chapters: booleans, numbers and timestamps", async () => {
    const chapter = await handle.db
      .selectFrom("chapters")
      .selectAll()
      .where("id", "=", "chapter-1-types")
      .executeTakeFirst();
    expect(chapter).toStrictEqual(EXPECTED_CHAPTER);
    expect(typeof chapter?.published).toBe("boolean");
    expect(typeof chapter?.number).toBe("number");
  });

  it("database-default timestamps are the current time", async () => {
    const chapter = await handle.db
      .selectFrom("chapters")
      .select(["created_at", "updated_at"])
      .where("id", "=", "chapter-1-types")
      .executeTakeFirstOrThrow();
    const after = new Date(Date.now() + 60_000).toISOString();
    // ISO strings in UTC compare in time order.
    expect(chapter.created_at > before && chapter.created_at < after).toBe(true);
    expect(chapter.updated_at > before && chapter.updated_at < after).toBe(true);
  });

  it("filters on a boolean column with a JavaScript boolean", async () => {
    const published = await handle.db.selectFrom("chapters").select("slug").where("published", "=", true).execute();
    const drafts = await handle.db
      .selectFrom("chapters")
      .select(["slug", "published"])
      .where("published", "=", false)
      .execute();
    expect(published).toStrictEqual([{ slug: "types" }]);
    expect(drafts).toStrictEqual([{ slug: "draft", published: false }]);
  });

  it("resources: featured false is the boolean false", async () => {
    const resource = await handle.db.selectFrom("resources").selectAll().executeTakeFirst();
    expect(resource).toStrictEqual(EXPECTED_RESOURCE);
    expect(resource?.featured).toBe(false);
  });

  it("home_page_content: metadata comes back as an object", async () => {
    const rows = await handle.db.selectFrom("home_page_content").selectAll().execute();
    expect(rows).toStrictEqual([EXPECTED_HOME]);
  });

  it("audit_log: details come back as objects, app-written times unchanged", async () => {
    const rows = await handle.db.selectFrom("audit_log").selectAll().orderBy("id").execute();
    expect(rows).toStrictEqual(EXPECTED_AUDIT);
  });

  it("count() is a number", async () => {
    const counts = await handle.db
      .selectFrom("chapters")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(counts).toStrictEqual({ n: 2 });

    const grouped = await handle.db
      .selectFrom("chapters")
      .select(["published", (eb) => eb.fn.countAll<number>().as("n"), (eb) => eb.fn.max("number").as("highest")])
      .groupBy("published")
      .orderBy("published")
      .execute();
    expect(grouped).toStrictEqual([
      { published: false, n: 1, highest: 8 },
      { published: true, n: 1, highest: 7 },
    ]);
  });
});
