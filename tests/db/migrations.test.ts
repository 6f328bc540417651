import { type Kysely, sql } from "kysely";
import { Migrator } from "kysely/migration";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../../server/db/connection.ts";
import { migrateToLatest } from "../../server/db/migrate.ts";
import { BETTER_AUTH_TABLES } from "../../server/db/migrations/better-auth-tables.ts";
import { migrationsFor } from "../../server/db/migrations/index.ts";
import { activeSubscribersByDay } from "../../server/newsletter/admin.ts";
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from "../helpers/databases.ts";

const APP_TABLES = [
  "home_page_content",
  "chapters",
  "chapter_sections",
  "chapter_slug_redirects",
  "tips_resources",
  "resources",
  "certifications",
  "skills",
  "timeline_events",
  "site_content",
  "site_settings",
  "user_roles",
  "newsletter_subscribers",
  "newsletter_active_periods",
  "newsletter_suppressions",
  "newsletter_bounces",
  "request_limits",
  "newsletter_settings",
  "notifications",
  "email_outbox",
  "account_invitations",
  "phone_factors",
  "sms_outbox",
  "media",
  "audit_log",
  "page_views",
  "list_revisions",
];

/** Better Auth's tables as Better Auth 1.7.7 names them (camelCase, a table called "user"). */
const AUTH_TABLES = ["user", "session", "account", "verification", "twoFactor", "passkey", "jwks", "rateLimit"];

/** The promise rejects, and the database's message names the constraint that refused the row. */
async function expectViolation(work: Promise<unknown>, constraint: RegExp): Promise<void> {
  await expect(work).rejects.toThrow(constraint);
}

const MIGRATION_NAMES = [
  "0001-initial-schema",
  "0002-email-outbox-batch",
  "0003-content-revisions",
  "0004-media",
  "0005-phone-factor",
  "0006-audit-actor-kept",
  "0007-subscriber-bounced-at",
  "0008-newsletter-active-periods",
];

/** The migrations from `first` on: what migrating to the latest applies after the one before it. */
const migrationsFrom = (first: string) => MIGRATION_NAMES.slice(MIGRATION_NAMES.indexOf(first));

let sequence = 0;
const nextId = (prefix: string) => `${prefix}-test-${++sequence}`;

/**
 * Any table, any column, any value: these tests write rows the schema's types forbid
 * (a bad category, an unknown role), to see the database itself refuse them. The
 * database is viewed this way on purpose, hence the cast through unknown.
 */
type UncheckedTables = Record<string, Record<string, unknown>>;

describe.each(TEST_DIALECTS)("migrations on %s", (dialect) => {
  let testDb: TestDatabase;
  let handle: DatabaseHandle;
  let db: Kysely<UncheckedTables>;
  let firstRun: string[];

  beforeAll(async () => {
    testDb = await createTestDatabase(dialect);
    handle = openDatabase(testDb.config);
    db = handle.db as unknown as Kysely<UncheckedTables>;
    firstRun = await migrateToLatest(handle.db, handle.dialect);
  });

  afterAll(async () => {
    await handle?.close();
    await testDb?.drop();
  });

  it("reports the migrations it applied on an empty database", () => {
    expect(firstRun).toEqual(MIGRATION_NAMES);
  });

  it("creates every table of the data model, and nothing else", async () => {
    // getTables() leaves out Kysely's own kysely_migration and kysely_migration_lock.
    const tables = (await db.introspection.getTables()).map((table) => table.name).sort();
    expect(tables).toEqual([...APP_TABLES, ...AUTH_TABLES].sort());
    // The list the down migration drops names the same Better Auth tables.
    expect([...BETTER_AUTH_TABLES].sort()).toEqual([...AUTH_TABLES].sort());
  });

  it("gives chapters, newsletter_subscribers and media the columns of the data model", async () => {
    const tables = await db.introspection.getTables();
    const columns = (name: string) =>
      tables
        .find((table) => table.name === name)
        ?.columns.map((column) => column.name)
        .sort();
    expect(columns("chapters")).toEqual(
      [
        "id",
        "slug",
        "title",
        "number",
        "order_index",
        "published",
        "created_at",
        "updated_at",
        "published_at",
        "revision",
      ].sort(),
    );
    expect(columns("newsletter_subscribers")).toEqual(
      [
        "id",
        "email",
        "status",
        "subscribed_at",
        "confirmed_at",
        "unsubscribed_at",
        "confirmation_token_hash",
        "confirmation_expires_at",
        "last_confirmation_sent_at",
        "consent_at",
        "consent_source",
        "consent_ip_hash",
        "bounced_at",
        "updated_at",
      ].sort(),
    );
    expect(columns("media")).toEqual(
      [
        "id",
        "bucket",
        "path",
        "mime",
        "bytes",
        "width",
        "height",
        "created_at",
        "created_by",
        "alt",
        "original_name",
        "source_url",
        "variants",
        "revision",
      ].sort(),
    );
  });

  it("applies nothing when run a second time", async () => {
    expect(await migrateToLatest(handle.db, handle.dialect)).toEqual([]);
    const recorded = await db.selectFrom("kysely_migration").select("name").execute();
    expect(recorded.map((row) => row.name)).toEqual(MIGRATION_NAMES);
  });

  describe("CHECK constraints reject values outside the data model", () => {
    let chapterId: string;
    let userId: string;

    beforeAll(async () => {
      chapterId = nextId("chapter");
      await db
        .insertInto("chapters")
        .values({ id: chapterId, slug: `slug-${chapterId}`, title: "Checks", number: 1, order_index: 0 })
        .execute();
      userId = nextId("user");
      const now = new Date().toISOString();
      await db
        .insertInto("user")
        .values({
          id: userId,
          name: "Ada",
          email: `${userId}@example.com`,
          emailVerified: false,
          createdAt: now,
          updatedAt: now,
        })
        .execute();
    });

    const section = (type: string) => ({
      id: nextId("section"),
      chapter_id: chapterId,
      type,
      content: "x",
      order_index: 0,
    });

    it("chapter_sections.type", async () => {
      await db.insertInto("chapter_sections").values(section("code")).execute();
      await expectViolation(
        db.insertInto("chapter_sections").values(section("video")).execute(),
        /chapter_sections_type_check/,
      );
    });

    it("tips_resources.category and tips_resources.type", async () => {
      const tip = (category: string, type = "external") => ({ id: nextId("tip"), category, title: "T", type });
      await db.insertInto("tips_resources").values(tip("Security Tips")).execute();
      await expectViolation(
        db.insertInto("tips_resources").values(tip("Other")).execute(),
        /tips_resources_category_check/,
      );
      await expectViolation(
        db.insertInto("tips_resources").values(tip("AWS", "internal")).execute(),
        /tips_resources_type_check/,
      );
    });

    it("resources.category", async () => {
      const resource = (category: string) => ({
        id: nextId("resource"),
        name: "R",
        url: "https://example.com",
        category,
      });
      await db.insertInto("resources").values(resource("Services")).execute();
      await expectViolation(
        db.insertInto("resources").values(resource("Podcasts")).execute(),
        /resources_category_check/,
      );
    });

    it("certifications.status", async () => {
      const cert = (status: string) => ({ id: nextId("cert"), name: "OSCP", status, order_index: 0 });
      await db.insertInto("certifications").values(cert("in-progress")).execute();
      await expectViolation(
        db.insertInto("certifications").values(cert("expired")).execute(),
        /certifications_status_check/,
      );
    });

    it("timeline_events.category", async () => {
      const event = (category: string) => ({ id: nextId("event"), date: "2024", title: "E", category, order_index: 0 });
      await db.insertInto("timeline_events").values(event("career")).execute();
      await expectViolation(
        db.insertInto("timeline_events").values(event("hobby")).execute(),
        /timeline_events_category_check/,
      );
    });

    it("skills.level between 0 and 100", async () => {
      const skill = (level: number) => ({ id: nextId("skill"), name: "S", level, order_index: 0 });
      await db
        .insertInto("skills")
        .values([skill(0), skill(100)])
        .execute();
      await expectViolation(db.insertInto("skills").values(skill(101)).execute(), /skills_level_range/);
      await expectViolation(db.insertInto("skills").values(skill(-1)).execute(), /skills_level_range/);
    });

    it("user_roles.role", async () => {
      await db.insertInto("user_roles").values({ user_id: userId, role: "editor" }).execute();
      await expectViolation(
        db.insertInto("user_roles").values({ user_id: userId, role: "owner" }).execute(),
        /user_roles_role_check/,
      );
      // The same role twice for one user is refused too.
      await expect(db.insertInto("user_roles").values({ user_id: userId, role: "editor" }).execute()).rejects.toThrow(
        /UNIQUE|duplicate key/i,
      );
    });

    it("newsletter_subscribers.status", async () => {
      const subscriber = (status: string) => {
        const id = nextId("sub");
        return { id, email: `${id}@example.com`, status };
      };
      await db.insertInto("newsletter_subscribers").values(subscriber("bounced")).execute();
      await expectViolation(
        db.insertInto("newsletter_subscribers").values(subscriber("deleted")).execute(),
        /newsletter_subscribers_status_check/,
      );
    });
  });

  describe("newsletter_subscribers.email", () => {
    const subscriber = (email: string) => {
      const id = nextId("sub");
      return { id, email };
    };

    it("rejects an upper-case email", async () => {
      await expectViolation(
        db.insertInto("newsletter_subscribers").values(subscriber("Reader@Example.com")).execute(),
        /newsletter_subscribers_email_lower/,
      );
    });

    it("rejects a duplicate email", async () => {
      await db.insertInto("newsletter_subscribers").values(subscriber("reader@example.com")).execute();
      await expect(
        db.insertInto("newsletter_subscribers").values(subscriber("reader@example.com")).execute(),
      ).rejects.toThrow(/UNIQUE constraint failed: newsletter_subscribers\.email|newsletter_subscribers_email_key/);
      const rows = await db
        .selectFrom("newsletter_subscribers")
        .select("id")
        .where("email", "=", "reader@example.com")
        .execute();
      expect(rows).toHaveLength(1);
    });
  });

  it("deleting a chapter deletes its sections", async () => {
    const chapterId = nextId("chapter");
    const otherId = nextId("chapter");
    await db
      .insertInto("chapters")
      .values([
        { id: chapterId, slug: `slug-${chapterId}`, title: "Doomed", number: 2, order_index: 1 },
        { id: otherId, slug: `slug-${otherId}`, title: "Kept", number: 3, order_index: 2 },
      ])
      .execute();
    await db
      .insertInto("chapter_sections")
      .values([
        { id: nextId("section"), chapter_id: chapterId, type: "heading", content: "a", order_index: 0 },
        { id: nextId("section"), chapter_id: chapterId, type: "text", content: "b", order_index: 1 },
        { id: nextId("section"), chapter_id: otherId, type: "text", content: "c", order_index: 0 },
      ])
      .execute();

    const countFor = async (id: string) =>
      (
        await db
          .selectFrom("chapter_sections")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("chapter_id", "=", id)
          .executeTakeFirstOrThrow()
      ).n;
    expect(await countFor(chapterId)).toBe(2);

    await db.deleteFrom("chapters").where("id", "=", chapterId).execute();
    expect(await countFor(chapterId)).toBe(0);
    expect(await countFor(otherId)).toBe(1);
  });

  it("refuses a section whose chapter does not exist", async () => {
    await expect(
      db
        .insertInto("chapter_sections")
        .values({ id: nextId("section"), chapter_id: "chapter-missing", type: "text", content: "x", order_index: 0 })
        .execute(),
    ).rejects.toThrow(/FOREIGN KEY constraint failed|foreign key constraint/i);
  });
});

describe.each(TEST_DIALECTS)("0002-email-outbox-batch on %s", (dialect) => {
  it("gives the notification emails queued before it their notification as batch, and no other row one", async () => {
    const testDb = await createTestDatabase(dialect);
    const handle = openDatabase(testDb.config);
    try {
      const db = handle.db as unknown as Kysely<UncheckedTables>;
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrationsFor(handle.dialect) } });
      expect((await migrator.migrateTo("0001-initial-schema")).error).toBeUndefined();
      const email = (id: string, key: string) => ({
        id,
        idempotency_key: key,
        kind: "notification",
        to_address: `${id}@example.test`,
        subject: "New",
        html_body: "<p>New</p>",
        text_body: "New",
      });
      await db
        .insertInto("email_outbox")
        .values([
          email("e1", "notify:notification-1:sub-1"),
          email("e2", "notify:notification-1:sub-2"),
          email("e3", "notify:notification-22:sub-1"),
          email("e4", "newsletter-confirm:abc"),
        ])
        .execute();

      expect(await migrateToLatest(handle.db, handle.dialect)).toEqual(MIGRATION_NAMES.slice(1));
      const rows = await db.selectFrom("email_outbox").select(["id", "batch_id"]).orderBy("id").execute();
      expect(rows).toEqual([
        { id: "e1", batch_id: "notification-1" },
        { id: "e2", batch_id: "notification-1" },
        { id: "e3", batch_id: "notification-22" },
        { id: "e4", batch_id: null },
      ]);
    } finally {
      await handle.close();
      await testDb.drop();
    }
  });
});

describe.each(TEST_DIALECTS)("0006-audit-actor-kept on %s", (dialect) => {
  it("keeps every audit row as it was, and the actor of a row when that user is deleted", async () => {
    const testDb = await createTestDatabase(dialect);
    const handle = openDatabase(testDb.config);
    try {
      const db = handle.db as unknown as Kysely<UncheckedTables>;
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrationsFor(handle.dialect) } });
      expect((await migrator.migrateTo("0005-phone-factor")).error).toBeUndefined();
      const now = new Date().toISOString();
      await db
        .insertInto("user")
        .values({
          id: "user-eve",
          name: "Eve",
          email: "eve@example.com",
          emailVerified: false,
          createdAt: now,
          updatedAt: now,
        })
        .execute();
      const row = {
        id: "audit-1",
        at: "2026-11-01T10:00:00.000Z",
        user_id: "user-eve",
        action: "chapter.updated",
        entity: "chapter",
        entity_id: "chapter-1",
        details: JSON.stringify({ title: "First" }),
      };
      await db.insertInto("audit_log").values(row).execute();

      expect(await migrateToLatest(handle.db, handle.dialect)).toEqual(migrationsFrom("0006-audit-actor-kept"));
      await db.deleteFrom("user").where("id", "=", "user-eve").execute();
      const kept = await db.selectFrom("audit_log").selectAll().execute();
      expect(kept).toHaveLength(1);
      expect(kept[0]).toMatchObject({ id: "audit-1", user_id: "user-eve", entity_id: "chapter-1" });
      expect(new Date(kept[0]!.at as string | Date).toISOString()).toBe(row.at);
      const details = kept[0]!.details;
      expect(typeof details === "string" ? JSON.parse(details) : details).toEqual({ title: "First" });

      // The table's default and index came through the rebuild.
      await db.insertInto("audit_log").values({ id: "audit-2", action: "auth.sign-in", entity: "user" }).execute();
      const added = await db
        .selectFrom("audit_log")
        .select(["at", "details"])
        .where("id", "=", "audit-2")
        .executeTakeFirstOrThrow();
      expect(added.at).toBeTruthy();
      const indexes = await sql<{ name: string }>`${
        dialect === "sqlite"
          ? sql`select name from sqlite_master where type = 'index' and tbl_name = 'audit_log'`
          : sql`select indexname as name from pg_indexes where tablename = 'audit_log'`
      }`.execute(handle.db);
      expect(indexes.rows.map((index) => index.name)).toContain("audit_log_at_idx");
    } finally {
      await handle.close();
      await testDb.drop();
    }
  });
});

describe.each(TEST_DIALECTS)("0007-subscriber-bounced-at on %s", (dialect) => {
  it("dates a subscriber bounced before it by their last change, and no one else", async () => {
    const testDb = await createTestDatabase(dialect);
    const handle = openDatabase(testDb.config);
    try {
      const db = handle.db as unknown as Kysely<UncheckedTables>;
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrationsFor(handle.dialect) } });
      expect((await migrator.migrateTo("0006-audit-actor-kept")).error).toBeUndefined();
      const lastChange = "2026-10-02T08:00:00.000Z";
      for (const [id, status] of [
        ["bounced", "bounced"],
        ["active", "active"],
      ]) {
        await db
          .insertInto("newsletter_subscribers")
          .values({ id, email: `${id}@example.com`, status, updated_at: lastChange })
          .execute();
      }

      expect(await migrateToLatest(handle.db, handle.dialect)).toEqual(migrationsFrom("0007-subscriber-bounced-at"));
      const rows = await db.selectFrom("newsletter_subscribers").select(["id", "bounced_at"]).orderBy("id").execute();
      expect(
        rows.map((row) => [row.id, row.bounced_at && new Date(row.bounced_at as string | Date).toISOString()]),
      ).toEqual([
        ["active", null],
        ["bounced", lastChange],
      ]);
    } finally {
      await handle.close();
      await testDb.drop();
    }
  });
});

describe.each(TEST_DIALECTS)("0008-newsletter-active-periods on %s", (dialect) => {
  it("gives each confirmed subscriber one period, ending where the chart ended it, so the chart keeps its past", async () => {
    const testDb = await createTestDatabase(dialect);
    const handle = openDatabase(testDb.config);
    try {
      const db = handle.db as unknown as Kysely<UncheckedTables>;
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrationsFor(handle.dialect) } });
      expect((await migrator.migrateTo("0007-subscriber-bounced-at")).error).toBeUndefined();
      const now = new Date("2026-03-20T12:00:00.000Z");
      const at = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
      const rows = [
        { id: "s1", status: "active", confirmed_at: at(40), updated_at: at(40) },
        { id: "s2", status: "active", confirmed_at: at(5), updated_at: at(5) },
        { id: "s3", status: "unsubscribed", confirmed_at: at(20), unsubscribed_at: at(10), updated_at: at(10) },
        // Bounced before bounced_at existed: its last change.
        { id: "s4", status: "bounced", confirmed_at: at(15), updated_at: at(2) },
        { id: "s5", status: "pending", updated_at: at(3) },
        // Bounced, then the unsubscribe link clicked and a second report: the bounce.
        {
          id: "s6",
          status: "bounced",
          confirmed_at: at(20),
          bounced_at: at(6),
          unsubscribed_at: at(3),
          updated_at: at(1),
        },
        // Unsubscribed, then an email to the address bounced: the unsubscribe.
        {
          id: "s7",
          status: "bounced",
          confirmed_at: at(20),
          unsubscribed_at: at(8),
          bounced_at: at(4),
          updated_at: at(4),
        },
        // Unsubscribed without a date (an old import): never counted.
        { id: "s8", status: "unsubscribed", confirmed_at: at(25), updated_at: at(25) },
        // Pending again after unsubscribing, its confirmation kept.
        { id: "s9", status: "pending", confirmed_at: at(18), unsubscribed_at: at(9), updated_at: at(7) },
      ];
      for (const row of rows) {
        await db
          .insertInto("newsletter_subscribers")
          .values({ email: `${row.id}@example.com`, subscribed_at: row.updated_at, ...row })
          .execute();
      }
      // More than one batch of the backfill.
      const many = Array.from({ length: 450 }, (_, index) => ({
        id: `t${String(index).padStart(3, "0")}`,
        email: `t${index}@example.com`,
        status: "active",
        confirmed_at: at(50),
      }));
      await db.insertInto("newsletter_subscribers").values(many).execute();

      expect(await migrateToLatest(handle.db, handle.dialect)).toEqual(["0008-newsletter-active-periods"]);
      const periods = await db
        .selectFrom("newsletter_active_periods")
        .select(["id", "subscriber_id", "started_at", "ended_at"])
        .orderBy("subscriber_id")
        .execute();
      const iso = (value: unknown) => value && new Date(value as string | Date).toISOString();
      expect(
        periods
          .filter((period) => !String(period.subscriber_id).startsWith("t"))
          .map((period) => [period.subscriber_id, iso(period.started_at), iso(period.ended_at)]),
      ).toEqual([
        ["s1", at(40), null],
        ["s2", at(5), null],
        ["s3", at(20), at(10)],
        ["s4", at(15), at(2)],
        ["s6", at(20), at(6)],
        ["s7", at(20), at(8)],
        ["s8", at(25), at(25)],
        ["s9", at(18), at(9)],
      ]);
      expect(periods).toHaveLength(8 + many.length);
      expect(periods.every((period) => /^period-\d+-[a-z0-9]{10}$/.test(String(period.id)))).toBe(true);

      // What the chart's query before this migration answered for these rows, day by day.
      const chart = await activeSubscribersByDay(handle.db, now);
      expect(chart.map((day) => day.active - many.length)).toEqual([
        1, 1, 1, 1, 1, 1, 1, 1, 1, 4, 4, 5, 5, 5, 6, 6, 6, 6, 6, 5, 4, 3, 3, 2, 3, 3, 3, 2, 2, 2,
      ]);
    } finally {
      await handle.close();
      await testDb.drop();
    }
  });
});
