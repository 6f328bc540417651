import { type Insertable, sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { NewsletterSubscribersTable } from "../../server/db/schema.ts";
import { Invalid, NotFound } from "../../server/errors.ts";
import {
  activeSubscribersByDay,
  containsPattern,
  csvField,
  getNewsletterStats,
  listSubscribers,
  listSuppressions,
  SUBSCRIBERS_PAGE_SIZE,
  subscribersCsv,
} from "../../server/newsletter/admin.ts";
import { recordBounce } from "../../server/newsletter/bounces.ts";
import { getNewsletterSettings, updateNewsletterSettings } from "../../server/newsletter/settings.ts";
import { deleteSubscriber, unsubscribeWithToken } from "../../server/newsletter/subscribers.ts";
import { addSuppression, removeSuppression } from "../../server/newsletter/suppression.ts";
import { unsubscribeToken } from "../../server/newsletter/tokens.ts";
import { type MigratedDatabase, migratedDatabase, TEST_DIALECTS } from "../helpers/databases.ts";

type Status = "active" | "pending" | "unsubscribed" | "bounced";

const NOW = new Date("2026-03-20T12:00:00.000Z");
const SECRET = "a-test-secret-of-thirty-two-chars!!";
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString();

describe("csvField and containsPattern", () => {
  it("quotes commas, quotes and line breaks, and defuses formulas", () => {
    expect(csvField("plain@example.test")).toBe("plain@example.test");
    expect(csvField('a"b,c')).toBe('"a""b,c"');
    expect(csvField("line\nbreak")).toBe('"line\nbreak"');
    expect(csvField("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvField("-1,2")).toBe('"\'-1,2"');
    expect(csvField(null)).toBe("");
  });
  it("escapes LIKE wildcards and the escape character", () => {
    expect(containsPattern("a%b_c\\d")).toBe("%a\\%b\\_c\\\\d%");
  });
});

describe.each(TEST_DIALECTS)("newsletter admin on %s", (dialect) => {
  let database: MigratedDatabase;
  const db = () => database.handle.db;

  async function insert(email: string, status: Status, subscribedAt: string, id = `sub-${email}`) {
    await db()
      .insertInto("newsletter_subscribers")
      .values({ id, email, status, subscribed_at: subscribedAt })
      .execute();
  }

  beforeAll(async () => {
    database = await migratedDatabase(dialect);
  });
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(async () => {
    await db().deleteFrom("newsletter_subscribers").execute();
    await db().deleteFrom("newsletter_suppressions").execute();
  });

  it("counts by status, this month and this week", async () => {
    await insert("a@example.test", "active", daysAgo(1));
    await insert("b@example.test", "active", daysAgo(10));
    await insert("c@example.test", "pending", daysAgo(3));
    await insert("d@example.test", "unsubscribed", daysAgo(40));
    await insert("e@example.test", "bounced", daysAgo(25));
    expect(await getNewsletterStats(db(), NOW)).toEqual({
      total: 5,
      newThisMonth: 3, // March 1 onwards: 1, 10 and 3 days ago
      newThisWeek: 2,
      active: 2,
      pending: 1,
      unsubscribed: 1,
      bounced: 1,
    });
  });

  it("counts zero on an empty list", async () => {
    expect(await getNewsletterStats(db(), NOW)).toMatchObject({ total: 0, newThisMonth: 0, newThisWeek: 0 });
  });

  it("searches case-insensitively, with % and _ taken literally", async () => {
    await insert("ada@example.test", "active", daysAgo(1));
    await insert("bob_smith@example.test", "active", daysAgo(2));
    await insert("bobXsmith@example.test".toLowerCase(), "active", daysAgo(3));
    await insert("100%real@example.test", "pending", daysAgo(4));
    await insert("100xreal@example.test", "pending", daysAgo(5));

    const emails = async (search: string) => (await listSubscribers(db(), { search })).subscribers.map((s) => s.email);
    expect(await emails("ADA@EXAMPLE")).toEqual(["ada@example.test"]);
    expect(await emails("BOB_")).toEqual(["bob_smith@example.test"]);
    expect(await emails("0%R")).toEqual(["100%real@example.test"]);
    expect(await emails("%")).toEqual(["100%real@example.test"]);
    expect(await emails("nobody")).toEqual([]);
    expect(await emails("  ")).toHaveLength(5);
  });

  it("filters by status and combines with the search", async () => {
    await insert("a1@example.test", "active", daysAgo(1));
    await insert("a2@other.test", "active", daysAgo(2));
    await insert("p1@example.test", "pending", daysAgo(3));
    await insert("b1@example.test", "bounced", daysAgo(4));
    expect((await listSubscribers(db(), { status: "active" })).subscribers.map((s) => s.email)).toEqual([
      "a1@example.test",
      "a2@other.test",
    ]);
    expect((await listSubscribers(db(), { status: "bounced" })).total).toBe(1);
    const page = await listSubscribers(db(), { status: "active", search: "OTHER" });
    expect(page.subscribers.map((s) => s.email)).toEqual(["a2@other.test"]);
  });

  it("pages 50 at a time, newest first, clamping the page", async () => {
    const rows = Array.from({ length: 120 }, (_, index) => ({
      id: `sub-${String(index).padStart(3, "0")}`,
      email: `user${String(index).padStart(3, "0")}@example.test`,
      status: "active" as const,
      subscribed_at: new Date(NOW.getTime() - index * 60_000).toISOString(),
    }));
    await db().insertInto("newsletter_subscribers").values(rows).execute();
    const first = await listSubscribers(db(), { page: 1 });
    expect(first).toMatchObject({ total: 120, page: 1, pageCount: 3, pageSize: SUBSCRIBERS_PAGE_SIZE });
    expect(first.subscribers).toHaveLength(50);
    expect(first.subscribers[0]?.email).toBe("user000@example.test");
    const third = await listSubscribers(db(), { page: 3 });
    expect(third.subscribers).toHaveLength(20);
    expect(third.subscribers.at(-1)?.email).toBe("user119@example.test");
    expect((await listSubscribers(db(), { page: 99 })).page).toBe(3);
    expect((await listSubscribers(db(), { page: 0 })).page).toBe(1);
    const ids = new Set(
      [...first.subscribers, ...(await listSubscribers(db(), { page: 2 })).subscribers].map((s) => s.id),
    );
    expect(ids.size).toBe(100);
    expect(first.subscribers[0]?.subscribed_at).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);
  });

  it("deletes a subscriber", async () => {
    await insert("gone@example.test", "pending", daysAgo(1), "sub-gone");
    await deleteSubscriber(db(), "sub-gone");
    await expect(deleteSubscriber(db(), "sub-gone")).rejects.toThrow(new NotFound("This subscriber no longer exists."));
    expect((await listSubscribers(db())).total).toBe(0);
  });

  it("adds (lower-cased, once) and removes suppression entries", async () => {
    const added = await addSuppression(db(), { email: "  Spam@Example.TEST ", reason: "Added by hand" });
    expect(added).toEqual({ created: true, email: "spam@example.test" });
    expect((await addSuppression(db(), { email: "SPAM@example.test", reason: "again" })).created).toBe(false);
    const list = await listSuppressions(db());
    expect(list.total).toBe(1);
    expect(list.entries[0]).toMatchObject({ email: "spam@example.test", reason: "Added by hand" });
    expect(list.entries[0]?.added_at).toMatch(/Z$/);
    const id = list.entries[0]?.id as string;
    await removeSuppression(db(), id);
    await expect(removeSuppression(db(), id)).rejects.toBeInstanceOf(NotFound);
    expect((await listSuppressions(db())).total).toBe(0);
  });

  it("exports every subscriber as escaped CSV", async () => {
    await insert("first@example.test", "active", "2026-01-01T00:00:00.000Z");
    await insert('"quoted",x@example.test', "pending", "2026-01-02T00:00:00.000Z");
    await insert("=cmd@example.test", "bounced", "2026-01-03T00:00:00.000Z");
    const csv = await subscribersCsv(db());
    expect(csv.split("\r\n")).toEqual([
      "email,status,subscribed_at,confirmed_at,unsubscribed_at",
      "first@example.test,active,2026-01-01T00:00:00.000Z,,",
      '"""quoted"",x@example.test",pending,2026-01-02T00:00:00.000Z,,',
      "'=cmd@example.test,bounced,2026-01-03T00:00:00.000Z,,",
      "",
    ]);
  });

  it("updates settings one key at a time, in order; a bad key or value is refused before any write", async () => {
    await updateNewsletterSettings(db(), [
      ["auto_send_enabled", "false"],
      ["welcome_email_subject", "Hello"],
    ]);
    expect(await getNewsletterSettings(db())).toMatchObject({
      auto_send_enabled: "false",
      welcome_email_subject: "Hello",
    });
    const failure = updateNewsletterSettings(db(), [
      ["welcome_email_body", "Body"],
      ["auto_send_enabled", "maybe"],
      ["welcome_email_subject", "Never"],
    ]);
    await expect(failure).rejects.toBeInstanceOf(Invalid);
    await expect(failure).rejects.toMatchObject({
      fields: { auto_send_enabled: "auto_send_enabled must be true or false" },
    });
    await expect(updateNewsletterSettings(db(), [["sender_name", "x"]])).rejects.toMatchObject({
      fields: { sender_name: "Unknown setting: sender_name" },
    });
    const unchanged = await getNewsletterSettings(db());
    expect(unchanged.welcome_email_subject).toBe("Hello");
    expect(unchanged.welcome_email_body).not.toBe("Body");
  });

  it("saves all the settings or none: a write failing midway leaves the earlier keys as they were", async () => {
    await updateNewsletterSettings(db(), [
      ["auto_send_enabled", "true"],
      ["welcome_email_subject", "Before"],
      ["welcome_email_body", "Before"],
    ]);
    // The database refuses the third write, as it would a value it cannot store.
    const refuseBody =
      dialect === "sqlite"
        ? [
            sql`CREATE TRIGGER refuse_body BEFORE UPDATE ON newsletter_settings
                WHEN NEW.setting_key = 'welcome_email_body' BEGIN SELECT RAISE(ABORT, 'refused'); END`,
          ]
        : [
            sql`CREATE FUNCTION refuse_body() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION 'refused'; END $$`,
            sql`CREATE TRIGGER refuse_body BEFORE UPDATE ON newsletter_settings FOR EACH ROW
                WHEN (NEW.setting_key = 'welcome_email_body') EXECUTE FUNCTION refuse_body()`,
          ];
    for (const statement of refuseBody) await statement.execute(db());
    try {
      const save = updateNewsletterSettings(db(), [
        ["auto_send_enabled", "false"],
        ["welcome_email_subject", "After"],
        ["welcome_email_body", "After"],
      ]);
      await expect(save).rejects.toThrow(/refused/);
      expect(await getNewsletterSettings(db())).toMatchObject({
        auto_send_enabled: "true",
        welcome_email_subject: "Before",
        welcome_email_body: "Before",
      });
    } finally {
      if (dialect === "sqlite") await sql`DROP TRIGGER refuse_body`.execute(db());
      else await sql`DROP FUNCTION refuse_body() CASCADE`.execute(db());
    }
  });
});

describe.each(TEST_DIALECTS)("the active-subscribers chart on %s", (dialect) => {
  let database: MigratedDatabase;
  const db = () => database.handle.db;
  beforeAll(async () => {
    database = await migratedDatabase(dialect);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("counts who was active at the end of each of the last 30 days", async () => {
    const at = (days: number) => daysAgo(days);
    // One by one: SQLite fills the columns a multi-row insert leaves out with NULL, not their default.
    const rows: Insertable<NewsletterSubscribersTable>[] = [
      // Active since 40 days ago: every day.
      { id: "s1", email: "s1@example.test", status: "active", confirmed_at: at(40), subscribed_at: at(41) },
      // Confirmed 5 days ago.
      { id: "s2", email: "s2@example.test", status: "active", confirmed_at: at(5), subscribed_at: at(5) },
      // Active from 20 to 10 days ago, then unsubscribed.
      {
        id: "s3",
        email: "s3@example.test",
        status: "unsubscribed",
        confirmed_at: at(20),
        unsubscribed_at: at(10),
        subscribed_at: at(20),
      },
      // Bounced 2 days ago.
      {
        id: "s4",
        email: "s4@example.test",
        status: "bounced",
        confirmed_at: at(15),
        updated_at: at(2),
        subscribed_at: at(15),
      },
      // Never confirmed.
      { id: "s5", email: "s5@example.test", status: "pending", subscribed_at: at(3) },
    ];
    for (const row of rows) {
      await db().insertInto("newsletter_subscribers").values(row).execute();
    }
    const days = await activeSubscribersByDay(db(), NOW);
    expect(days).toHaveLength(30);
    expect(days.at(-1)).toEqual({ day: "2026-03-20", active: 2 });
    const on = (ago: number) => days.find((entry) => entry.day === daysAgo(ago).slice(0, 10))?.active;
    expect(on(29)).toBe(1);
    expect(on(15)).toBe(3); // s1, s3, s4 (confirmed at noon that day)
    expect(on(12)).toBe(3);
    expect(on(10)).toBe(2); // s3 left at noon
    expect(on(3)).toBe(3); // s1, s2, s4
    expect(on(2)).toBe(2); // s1, s2 (s4 bounced, on its last change: a row without bounced_at)
  });

  it("counts a bounced subscriber out from the bounce, whatever comes after, or from an earlier unsubscribe", async () => {
    await db().deleteFrom("newsletter_subscribers").execute();
    const active = (id: string, confirmedDaysAgo: number) =>
      db()
        .insertInto("newsletter_subscribers")
        .values({
          id,
          email: `${id}@example.test`,
          status: "active",
          confirmed_at: daysAgo(confirmedDaysAgo),
          subscribed_at: daysAgo(confirmedDaysAgo),
        })
        .execute();
    const bounce = (id: string, ago: number) =>
      recordBounce(db(), { email: `${id}@example.test`, type: "hard" }, new Date(daysAgo(ago)));
    const unsubscribe = (id: string, ago: number) =>
      unsubscribeWithToken(db(), SECRET, unsubscribeToken(SECRET, id), new Date(daysAgo(ago)));

    // Bounced 6 days ago; the unsubscribe link clicked 3 days ago and a second bounce
    // report a day ago move its last change, not the day it left.
    await active("later", 20);
    await bounce("later", 6);
    await unsubscribe("later", 3);
    await bounce("later", 1);
    // Unsubscribed 8 days ago, then an email to the address bounced 4 days ago.
    await active("earlier", 20);
    await unsubscribe("earlier", 8);
    await bounce("earlier", 4);

    const days = await activeSubscribersByDay(db(), NOW);
    const on = (ago: number) => days.find((entry) => entry.day === daysAgo(ago).slice(0, 10))?.active;
    expect(on(10)).toBe(2);
    expect(on(7)).toBe(1); // "later": "earlier" left at noon 8 days ago
    expect(on(5)).toBe(0);
    expect(on(2)).toBe(0);
  });
});
