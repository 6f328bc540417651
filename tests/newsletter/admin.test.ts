import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Conflict, Invalid, NotFound } from "../../server/errors.ts";
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
import { getNewsletterSettingsForEditor, updateNewsletterSettings } from "../../server/newsletter/settings.ts";
import {
  confirmSubscription,
  deleteSubscriber,
  subscribe,
  unsubscribeWithToken,
} from "../../server/newsletter/subscribers.ts";
import { addSuppression, removeSuppression } from "../../server/newsletter/suppression.ts";
import { unsubscribeToken } from "../../server/newsletter/tokens.ts";
import { auditOf } from "../content/fixture.ts";
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

  it("counts by status, the last 30 days and the last 7", async () => {
    await insert("a@example.test", "active", daysAgo(1));
    await insert("b@example.test", "active", daysAgo(10));
    await insert("c@example.test", "pending", daysAgo(3));
    await insert("d@example.test", "unsubscribed", daysAgo(40));
    await insert("e@example.test", "bounced", daysAgo(25));
    expect(await getNewsletterStats(db(), NOW)).toEqual({
      total: 5,
      newThisMonth: 4, // 1, 3, 10 and 25 days ago (the last one in February)
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

  const store = (actorId: string | null = null) => ({ db: db(), actorId, onChange: () => {} });
  const STALE_SETTINGS =
    "These settings were changed by someone else since you opened them. Reload to see the latest version.";

  it("saves the settings at the revisions the admin saw, with an audit row, and refuses a save over another admin's", async () => {
    const opened = await getNewsletterSettingsForEditor(db());
    const saved = await updateNewsletterSettings(store("admin-a"), {
      auto_send_enabled: { revision: opened.auto_send_enabled.revision, value: false },
      welcome_email_subject: { revision: opened.welcome_email_subject.revision, value: "Hello\r\nthere" },
      welcome_email_body: opened.welcome_email_body,
    });
    expect(saved.auto_send_enabled.value).toBe("false");
    expect(saved.welcome_email_subject.value).toBe("Hello there");
    expect(saved.welcome_email_body).toEqual(opened.welcome_email_body);
    const audit = await auditOf(db(), { action: "newsletter-settings.updated" });
    expect(audit.map((row) => [row.user_id, row.entity, row.details])).toEqual([
      ["admin-a", "newsletter-settings", { saved: ["auto_send_enabled", "welcome_email_subject"] }],
    ]);

    // Another admin opened the page before that save and turns the switch back on:
    // the subject they send is the old one, which must not overwrite the new.
    const stale = updateNewsletterSettings(store("admin-b"), {
      auto_send_enabled: { revision: opened.auto_send_enabled.revision, value: true },
      welcome_email_subject: opened.welcome_email_subject,
      welcome_email_body: opened.welcome_email_body,
    });
    await expect(stale).rejects.toBeInstanceOf(Conflict);
    await expect(stale).rejects.toThrow(STALE_SETTINGS);
    expect(await getNewsletterSettingsForEditor(db())).toEqual(saved);
    expect(await auditOf(db(), { action: "newsletter-settings.updated" })).toHaveLength(1);

    // The same save again (a double-click) succeeds without writing.
    const again = await updateNewsletterSettings(store("admin-a"), {
      auto_send_enabled: { revision: opened.auto_send_enabled.revision, value: false },
    });
    expect(again).toEqual(saved);
    expect(await auditOf(db(), { action: "newsletter-settings.updated" })).toHaveLength(1);
  });

  it("refuses an unknown key or a bad value before any write", async () => {
    const before = await getNewsletterSettingsForEditor(db());
    const failure = updateNewsletterSettings(store(), {
      welcome_email_body: { revision: before.welcome_email_body.revision, value: "Body" },
      welcome_email_subject: { revision: before.welcome_email_subject.revision, value: "   " },
    });
    await expect(failure).rejects.toBeInstanceOf(Invalid);
    await expect(failure).rejects.toMatchObject({
      fields: { "welcome_email_subject.value": "The welcome email subject is required" },
    });
    const unknown = updateNewsletterSettings(store(), { sender_name: { revision: 0, value: "x" } } as never);
    await expect(unknown).rejects.toBeInstanceOf(Invalid);
    expect(await getNewsletterSettingsForEditor(db())).toEqual(before);
  });

  it("saves all the settings or none: a write failing midway leaves the earlier keys as they were", async () => {
    const opened = await getNewsletterSettingsForEditor(db());
    const before = await updateNewsletterSettings(store(), {
      auto_send_enabled: { revision: opened.auto_send_enabled.revision, value: true },
      welcome_email_subject: { revision: opened.welcome_email_subject.revision, value: "Before" },
      welcome_email_body: { revision: opened.welcome_email_body.revision, value: "Before" },
    });
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
      const save = updateNewsletterSettings(store(), {
        auto_send_enabled: { revision: before.auto_send_enabled.revision, value: false },
        welcome_email_subject: { revision: before.welcome_email_subject.revision, value: "After" },
        welcome_email_body: { revision: before.welcome_email_body.revision, value: "After" },
      });
      await expect(save).rejects.toThrow(/refused/);
      expect(await getNewsletterSettingsForEditor(db())).toEqual(before);
    } finally {
      if (dialect === "sqlite") await sql`DROP TRIGGER refuse_body`.execute(db());
      else await sql`DROP FUNCTION refuse_body() CASCADE`.execute(db());
    }
  });
});

describe.each(TEST_DIALECTS)("the active-subscribers chart on %s", (dialect) => {
  let database: MigratedDatabase;
  const db = () => database.handle.db;
  const deps = { config: { publicOrigin: "https://bastion.test" }, secret: SECRET };
  const when = (ago: number) => new Date(daysAgo(ago));
  const idOf = async (name: string) =>
    (
      await db()
        .selectFrom("newsletter_subscribers")
        .select("id")
        .where("email", "=", `${name}@example.test`)
        .executeTakeFirstOrThrow()
    ).id;

  /** Subscribes through the form; pending until confirmed. */
  const subscribeAt = (name: string, ago: number) =>
    subscribe(db(), deps, { email: `${name}@example.test`, source: "form", ip: "203.0.113.7" }, when(ago));
  /** Clicks the link of the confirmation email sent last. */
  async function confirmAt(name: string, ago: number) {
    const { confirmation_token_hash } = await db()
      .selectFrom("newsletter_subscribers")
      .select("confirmation_token_hash")
      .where("email", "=", `${name}@example.test`)
      .executeTakeFirstOrThrow();
    const { text_body } = await db()
      .selectFrom("email_outbox")
      .select("text_body")
      .where("idempotency_key", "=", `newsletter-confirm:${confirmation_token_hash}`)
      .executeTakeFirstOrThrow();
    const token = /\/newsletter\/confirm\?token=([A-Za-z0-9_-]+)/.exec(text_body)?.[1] as string;
    expect(await confirmSubscription(db(), deps, token, when(ago))).toMatchObject({ success: true });
  }
  async function activeFrom(name: string, ago: number) {
    await subscribeAt(name, ago);
    await confirmAt(name, ago);
  }
  const unsubscribeAt = async (name: string, ago: number) =>
    unsubscribeWithToken(db(), SECRET, unsubscribeToken(SECRET, await idOf(name)), when(ago));
  const bounceAt = (name: string, ago: number) =>
    recordBounce(db(), { email: `${name}@example.test`, type: "hard" }, when(ago));
  const chart = async () => {
    const days = await activeSubscribersByDay(db(), NOW);
    return (ago: number) => days.find((entry) => entry.day === daysAgo(ago).slice(0, 10))?.active;
  };

  beforeAll(async () => {
    database = await migratedDatabase(dialect);
  });
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(async () => {
    for (const table of [
      "newsletter_subscribers",
      "newsletter_suppressions",
      "newsletter_bounces",
      "email_outbox",
    ] as const) {
      await db().deleteFrom(table).execute();
    }
  });

  it("counts who was active at the end of each of the last 30 days", async () => {
    await activeFrom("s1", 40); // every day
    await activeFrom("s2", 5);
    await activeFrom("s3", 20);
    await unsubscribeAt("s3", 10);
    await activeFrom("s4", 15);
    await bounceAt("s4", 2);
    await subscribeAt("s5", 3); // never confirmed

    const days = await activeSubscribersByDay(db(), NOW);
    expect(days).toHaveLength(30);
    expect(days.at(-1)).toEqual({ day: "2026-03-20", active: 2 });
    const on = await chart();
    expect(on(29)).toBe(1);
    expect(on(15)).toBe(3); // s1, s3, s4 (confirmed at noon that day)
    expect(on(12)).toBe(3);
    expect(on(10)).toBe(2); // s3 left at noon
    expect(on(3)).toBe(3); // s1, s2, s4
    expect(on(2)).toBe(2); // s1, s2: s4 bounced at noon
  });

  it("counts a bounced subscriber out from the bounce, whatever comes after, or from an earlier unsubscribe", async () => {
    // Bounced 6 days ago; the unsubscribe link clicked 3 days ago and a second bounce
    // report a day ago change the row, not the day it left.
    await activeFrom("later", 20);
    await bounceAt("later", 6);
    await unsubscribeAt("later", 3);
    await bounceAt("later", 1);
    // Unsubscribed 8 days ago, then an email to the address bounced 4 days ago.
    await activeFrom("earlier", 20);
    await unsubscribeAt("earlier", 8);
    await bounceAt("earlier", 4);

    const on = await chart();
    expect(on(10)).toBe(2);
    expect(on(7)).toBe(1); // "later": "earlier" left at noon 8 days ago
    expect(on(5)).toBe(0);
    expect(on(2)).toBe(0);
  });

  it("keeps the earlier days of a subscriber who left and subscribed again", async () => {
    // Unsubscribed 12 days ago; subscribed again 6 days ago, confirmed 4 days ago.
    await activeFrom("returning", 20);
    await unsubscribeAt("returning", 12);
    await subscribeAt("returning", 6);
    // Bounced 10 days ago; off the suppression list, subscribed again 3 days ago.
    await activeFrom("bounced", 25);
    await bounceAt("bounced", 10);
    await db().deleteFrom("newsletter_suppressions").execute();
    await subscribeAt("bounced", 3);
    const pending = await chart();
    expect([pending(15), pending(12), pending(10), pending(5), pending(0)]).toEqual([2, 1, 0, 0, 0]);

    await confirmAt("returning", 4);
    await confirmAt("bounced", 3);
    const on = await chart();
    expect(on(29)).toBe(0);
    expect(on(25)).toBe(1); // "bounced" since noon
    expect(on(15)).toBe(2);
    expect(on(12)).toBe(1); // "returning" left at noon
    expect(on(10)).toBe(0); // "bounced" left at noon
    expect(on(5)).toBe(0);
    expect(on(4)).toBe(1); // "returning" back at noon
    expect(on(3)).toBe(2);
    expect(on(0)).toBe(2);
  });

  it("forgets every day of a deleted subscriber", async () => {
    await activeFrom("gone", 20);
    await unsubscribeAt("gone", 12);
    await subscribeAt("gone", 6);
    await confirmAt("gone", 4);
    await deleteSubscriber(db(), await idOf("gone"));
    expect((await activeSubscribersByDay(db(), NOW)).every((day) => day.active === 0)).toBe(true);
    const { n } = await db()
      .selectFrom("newsletter_active_periods")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(n)).toBe(0);
  });
});
