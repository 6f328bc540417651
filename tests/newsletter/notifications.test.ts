import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createChapter, deleteChapter, updateChapter } from "../../server/content/chapters.ts";
import { createResource, deleteResource, updateResource } from "../../server/content/resources.ts";
import type { ContentStore } from "../../server/content/store.ts";
import { createTip, deleteTip, updateTip } from "../../server/content/tips.ts";
import type { DatabaseHandle } from "../../server/db/connection.ts";
import { prepareDatabase } from "../../server/db/setup.ts";
import { renderNotificationEmail } from "../../server/newsletter/notification-email.ts";
import {
  getNotificationForItem,
  NOTIFICATION_GRACE_MS,
  notificationProgress,
  sendDueNotifications,
  startNotificationScheduler,
} from "../../server/newsletter/notifications.ts";
import { verifyUnsubscribeToken } from "../../server/newsletter/tokens.ts";
import { logger, useContentFixture } from "../content/fixture.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";

const ORIGIN = "https://bastion.test";
const SECRET = "notification-test-secret";
const GRACE_MS = 60_000;
const fanOutOptions = { config: { publicOrigin: ORIGIN }, secret: SECRET };
/** A moment after every grace period of the test has ended. */
const later = () => new Date(Date.now() + GRACE_MS + 1_000);

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();

describe.each(TEST_DIALECTS)("newsletter notifications on %s", (dialect) => {
  const f = useContentFixture(dialect);
  let store: ContentStore;
  const db = () => f.handle.db;

  beforeAll(() => {
    store = { ...f.store, notificationGraceMs: GRACE_MS };
  });

  beforeEach(async () => {
    await db().deleteFrom("email_outbox").execute();
    await db().deleteFrom("notifications").execute();
    await db().deleteFrom("newsletter_suppressions").execute();
    await db().deleteFrom("newsletter_subscribers").execute();
    await setAutoSend("true");
    // Eligible: ada and grace. Everyone else is excluded for one reason each.
    await db()
      .insertInto("newsletter_subscribers")
      .values([
        { id: "sub-ada", email: "ada@example.test", status: "active", confirmed_at: hoursAgo(48) },
        { id: "sub-grace", email: "grace@example.test", status: "active", confirmed_at: hoursAgo(1) },
        { id: "sub-pending", email: "pending@example.test", status: "pending", confirmed_at: null },
        { id: "sub-gone", email: "gone@example.test", status: "unsubscribed", confirmed_at: hoursAgo(48) },
        { id: "sub-bounced", email: "bounced@example.test", status: "bounced", confirmed_at: hoursAgo(48) },
        { id: "sub-suppressed", email: "eve@example.test", status: "active", confirmed_at: hoursAgo(48) },
        // Confirmed after the notification was created (the clock says the future).
        {
          id: "sub-late",
          email: "late@example.test",
          status: "active",
          confirmed_at: new Date(Date.now() + 3_600_000).toISOString(),
        },
      ])
      .execute();
    await db()
      .insertInto("newsletter_suppressions")
      .values({ id: "supp-eve", email: "eve@example.test", reason: "complaint" })
      .execute();
  });

  async function setAutoSend(value: "true" | "false") {
    await db()
      .insertInto("newsletter_settings")
      .values({ setting_key: "auto_send_enabled", setting_value: value })
      .onConflict((conflict) => conflict.column("setting_key").doUpdateSet({ setting_value: value }))
      .execute();
  }

  const outbox = () => db().selectFrom("email_outbox").selectAll().orderBy("to_address").execute();
  const notificationCount = async () =>
    Number(
      (
        await db()
          .selectFrom("notifications")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("publishing a chapter: one notification, sent after the grace period to each eligible subscriber", async () => {
    const chapter = await createChapter(store, { title: "Hardening <SSH> & more" });
    const notification = await getNotificationForItem(db(), { type: "chapter", id: chapter.id });
    expect(notification).toMatchObject({
      status: "pending",
      title: "Hardening <SSH> & more",
      url: `/projects/${chapter.slug}`,
      sent_at: null,
    });
    const delay = Date.parse(notification?.scheduled_for ?? "") - Date.parse(notification?.created_at ?? "");
    expect(delay).toBe(GRACE_MS);

    // Within the grace period nothing is due.
    expect(await sendDueNotifications(db(), fanOutOptions)).toEqual({
      notifications: 0,
      emails: 0,
      skippedSubscriberIds: [],
    });
    expect(await outbox()).toEqual([]);

    expect(await sendDueNotifications(db(), { ...fanOutOptions, now: later() })).toEqual({
      notifications: 1,
      emails: 2,
      skippedSubscriberIds: [],
    });
    const rows = await outbox();
    expect(rows.map((row) => row.to_address)).toEqual(["ada@example.test", "grace@example.test"]);
    for (const row of rows) {
      const subscriberId = row.to_address === "ada@example.test" ? "sub-ada" : "sub-grace";
      expect(row).toMatchObject({
        kind: "notification",
        status: "pending",
        idempotency_key: `notify:${notification?.id}:${subscriberId}`,
        batch_id: notification?.id,
        subject: "New chapter: Hardening <SSH> & more",
      });
      // Headers: RFC 2369 angle brackets around one https URL, RFC 8058 one-click.
      const listUnsubscribe = row.headers["List-Unsubscribe"] ?? "";
      const match = /^<(https:\/\/bastion\.test\/api\/newsletter\/unsubscribe\?token=[^>\s]+)>$/.exec(listUnsubscribe);
      expect(match, listUnsubscribe).not.toBeNull();
      const token = new URL(match?.[1] ?? "").searchParams.get("token") ?? "";
      expect(verifyUnsubscribeToken(SECRET, token)).toBe(subscriberId);
      expect(row.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
      // Both parts: escaped title, absolute item URL, unsubscribe link in the footer.
      const itemUrl = `${ORIGIN}/projects/${chapter.slug}`;
      expect(row.html_body).toContain("Hardening &lt;SSH&gt; &amp; more");
      expect(row.html_body).not.toContain("<SSH>");
      expect(row.html_body).toContain(`href="${itemUrl}"`);
      expect(row.html_body).toContain(`${ORIGIN}/newsletter/unsubscribe?token=`);
      expect(row.text_body).toContain("New chapter: Hardening <SSH> & more");
      expect(row.text_body).toContain(itemUrl);
      expect(row.text_body).toMatch(/Unsubscribe: https:\/\/bastion\.test\/newsletter\/unsubscribe\?token=\S+/);
    }

    expect(await getNotificationForItem(db(), { type: "chapter", id: chapter.id })).toMatchObject({
      status: "sent",
    });
    expect(await notificationProgress(db(), notification?.id ?? "")).toEqual({ queued: 2, sent: 0, failed: 0 });
    await db()
      .updateTable("email_outbox")
      .set({ status: "sent" })
      .where("to_address", "=", "ada@example.test")
      .execute();
    await db()
      .updateTable("email_outbox")
      .set({ status: "failed" })
      .where("to_address", "=", "grace@example.test")
      .execute();
    expect(await notificationProgress(db(), notification?.id ?? "")).toEqual({ queued: 0, sent: 1, failed: 1 });

    // Nothing more is due; editing, unpublishing and re-publishing never notify again.
    expect(await sendDueNotifications(db(), { ...fanOutOptions, now: later() })).toEqual({
      notifications: 0,
      emails: 0,
      skippedSubscriberIds: [],
    });
    let latest = await updateChapter(store, chapter.id, {
      revision: chapter.revision,
      title: "Hardening SSH, revised",
    });
    latest = await updateChapter(store, chapter.id, { revision: latest.revision, published: false });
    await updateChapter(store, chapter.id, { revision: latest.revision, published: true });
    expect(await notificationCount()).toBe(1);
    expect(await getNotificationForItem(db(), { type: "chapter", id: chapter.id })).toMatchObject({
      status: "sent",
    });
    expect(await sendDueNotifications(db(), { ...fanOutOptions, now: later() })).toEqual({
      notifications: 0,
      emails: 0,
      skippedSubscriberIds: [],
    });
    expect(await outbox()).toHaveLength(2);
  });

  it("a draft chapter notifies when it is first published; unpublishing within the grace period cancels it, publishing again announces it", async () => {
    const draft = await createChapter(store, { title: "Draft", published: false });
    expect(await getNotificationForItem(db(), { type: "chapter", id: draft.id })).toBeUndefined();
    let latest = await updateChapter(store, draft.id, { revision: draft.revision, published: true });
    expect(await getNotificationForItem(db(), { type: "chapter", id: draft.id })).toMatchObject({ status: "pending" });
    latest = await updateChapter(store, draft.id, { revision: latest.revision, title: "Draft, renamed" });
    latest = await updateChapter(store, draft.id, { revision: latest.revision, published: false });
    expect(await getNotificationForItem(db(), { type: "chapter", id: draft.id })).toMatchObject({
      status: "cancelled",
    });
    // Nothing was sent: publishing again announces it, as it is now, after a new grace period.
    const cancelled = await getNotificationForItem(db(), { type: "chapter", id: draft.id });
    latest = await updateChapter(store, draft.id, { revision: latest.revision, published: true });
    expect(await notificationCount()).toBe(1);
    const rearmed = await getNotificationForItem(db(), { type: "chapter", id: draft.id });
    expect(rearmed).toMatchObject({ id: cancelled?.id, status: "pending", title: "Draft, renamed" });
    expect(Date.parse(rearmed?.scheduled_for ?? "")).toBeGreaterThan(Date.parse(cancelled?.scheduled_for ?? ""));
    expect(await sendDueNotifications(db(), { ...fanOutOptions, now: later() })).toMatchObject({
      notifications: 1,
      emails: 2,
    });
    expect((await outbox()).map((email) => email.subject)).toEqual([
      "New chapter: Draft, renamed",
      "New chapter: Draft, renamed",
    ]);
    // Once sent, unpublishing and publishing again never notify again.
    latest = await updateChapter(store, draft.id, { revision: latest.revision, published: false });
    await updateChapter(store, draft.id, { revision: latest.revision, published: true });
    expect(await getNotificationForItem(db(), { type: "chapter", id: draft.id })).toMatchObject({ status: "sent" });
    expect(await sendDueNotifications(db(), { ...fanOutOptions, now: later() })).toMatchObject({ notifications: 0 });
    expect(await outbox()).toHaveLength(2);
  });

  it("deleting a chapter, tip or resource within the grace period cancels its notification", async () => {
    const chapter = await createChapter(store, { title: "Short-lived" });
    const tip = await createTip(store, { title: "Oops", description: "Wrong tip" });
    const resource = await createResource(store, { name: "Gone", url: "https://gone.example" });
    expect(await notificationCount()).toBe(3);
    await deleteChapter(store, chapter.id);
    await deleteTip(store, tip.id);
    await deleteResource(store, resource.id);
    for (const item of [
      { type: "chapter" as const, id: chapter.id },
      { type: "tip" as const, id: tip.id },
      { type: "resource" as const, id: resource.id },
    ]) {
      expect(await getNotificationForItem(db(), item)).toMatchObject({ status: "cancelled" });
    }
    expect(await sendDueNotifications(db(), { ...fanOutOptions, now: later() })).toEqual({
      notifications: 0,
      emails: 0,
      skippedSubscriberIds: [],
    });
    expect(await outbox()).toEqual([]);
  });

  it("tips and resources: one notification each, with their summary and page, never again on edit", async () => {
    const tip = await createTip(store, { title: "Scan tuning", description: "Tune your scans." });
    const resource = await createResource(store, {
      name: "OWASP",
      description: "The top ten.",
      url: "https://owasp.example",
    });
    expect(await getNotificationForItem(db(), { type: "tip", id: tip.id })).toMatchObject({
      title: "Scan tuning",
      summary: "Tune your scans.",
      url: "/blog",
      status: "pending",
    });
    expect(await getNotificationForItem(db(), { type: "resource", id: resource.id })).toMatchObject({
      title: "OWASP",
      summary: "The top ten.",
      url: "/resources",
    });
    expect(await sendDueNotifications(db(), { ...fanOutOptions, now: later() })).toEqual({
      notifications: 2,
      emails: 4,
      skippedSubscriberIds: [],
    });
    const rows = await outbox();
    const tipEmail = rows.find((row) => row.subject === "New tip: Scan tuning");
    expect(tipEmail?.text_body).toContain(`${ORIGIN}/blog`);
    expect(tipEmail?.text_body).toContain("Tune your scans.");
    const resourceEmail = rows.find((row) => row.subject === "New resource: OWASP");
    expect(resourceEmail?.html_body).toContain(`href="${ORIGIN}/resources"`);
    expect(resourceEmail?.html_body).toContain("The top ten.");

    await updateTip(store, tip.id, { revision: tip.revision, title: "Scan tuning, again" });
    await updateResource(store, resource.id, { revision: resource.revision, name: "OWASP Top 10" });
    expect(await notificationCount()).toBe(2);
    expect(await sendDueNotifications(db(), { ...fanOutOptions, now: later() })).toMatchObject({ emails: 0 });
  });

  it("sends what the item says when the emails go out: a correction made within the grace period", async () => {
    const chapter = await createChapter(store, { title: "Hardneing SSH" });
    await updateChapter(store, chapter.id, { revision: chapter.revision, title: "Hardening SSH" });
    const tip = await createTip(store, { title: "Scan tunnig", description: "Tune you scans." });
    await updateTip(store, tip.id, { revision: tip.revision, title: "Scan tuning", description: "Tune your scans." });
    const resource = await createResource(store, {
      name: "OWSAP",
      description: "Top ten.",
      url: "https://owasp.example",
    });
    await updateResource(store, resource.id, { revision: resource.revision, name: "OWASP" });

    expect(await sendDueNotifications(db(), { ...fanOutOptions, now: later() })).toMatchObject({
      notifications: 3,
      emails: 6,
    });
    const subjects = new Set((await outbox()).map((row) => row.subject));
    expect(subjects).toEqual(new Set(["New chapter: Hardening SSH", "New tip: Scan tuning", "New resource: OWASP"]));
    const chapterEmail = (await outbox()).find((row) => row.subject === "New chapter: Hardening SSH");
    // The renamed chapter's own page, not its first slug's redirect.
    expect(chapterEmail?.text_body).toContain(`${ORIGIN}/projects/hardening-ssh`);
    expect(chapterEmail?.text_body).not.toContain("hardneing");
    const tipEmail = (await outbox()).find((row) => row.subject === "New tip: Scan tuning");
    expect(tipEmail?.text_body).toContain("Tune your scans.");
    // The admin's list shows what went out.
    expect(await getNotificationForItem(db(), { type: "chapter", id: chapter.id })).toMatchObject({
      title: "Hardening SSH",
      url: "/projects/hardening-ssh",
      status: "sent",
    });
  });

  it('auto_send_enabled "false": publishing creates no notification', async () => {
    await setAutoSend("false");
    await createChapter(store, { title: "Quiet" });
    await createTip(store, { title: "Quiet tip" });
    await createResource(store, { name: "Quiet resource", url: "https://quiet.example" });
    expect(await notificationCount()).toBe(0);
    expect(await sendDueNotifications(db(), { ...fanOutOptions, now: later() })).toEqual({
      notifications: 0,
      emails: 0,
      skippedSubscriberIds: [],
    });
  });

  it("cancels, unsent, a due notification whose item went away or whose switch was turned off since", async () => {
    // Past the grace period (none here), an unpublish or a delete no longer cancels it by itself.
    const due = { ...store, notificationGraceMs: 0 };
    const unpublished = await createChapter(due, { title: "Pulled back" });
    await updateChapter(due, unpublished.id, { revision: unpublished.revision, published: false });
    const deleted = await createTip(due, { title: "Withdrawn tip" });
    await deleteTip(due, deleted.id);
    expect(await sendDueNotifications(db(), { ...fanOutOptions, now: later() })).toEqual({
      notifications: 0,
      emails: 0,
      skippedSubscriberIds: [],
    });
    expect(await getNotificationForItem(db(), { type: "chapter", id: unpublished.id })).toMatchObject({
      status: "cancelled",
    });
    expect(await getNotificationForItem(db(), { type: "tip", id: deleted.id })).toMatchObject({ status: "cancelled" });

    const kept = await createChapter(due, { title: "Switched off after" });
    await setAutoSend("false");
    expect((await sendDueNotifications(db(), { ...fanOutOptions, now: later() })).emails).toBe(0);
    expect(await getNotificationForItem(db(), { type: "chapter", id: kept.id })).toMatchObject({ status: "cancelled" });
    expect(await outbox()).toEqual([]);
  });

  describe("several instances", () => {
    // PostgreSQL: a second pool, as another server instance has. SQLite serves one
    // instance (node:sqlite blocks the event loop while it waits for a lock, so two
    // handles in one process would deadlock): concurrent runs share its connection.
    let second: DatabaseHandle | undefined;
    const secondDb = () => (second ?? f.handle).db;
    beforeAll(async () => {
      if (dialect === "postgres") second = await prepareDatabase(f.testDb.config, logger);
    });
    afterAll(async () => {
      await second?.close();
    });

    it("two schedulers racing: each subscriber gets the notification once", async () => {
      const chapters = [];
      for (let index = 0; index < 3; index++) chapters.push(await createChapter(store, { title: `Race ${index}` }));
      const now = later();
      const results = await Promise.all([
        sendDueNotifications(db(), { ...fanOutOptions, now }),
        sendDueNotifications(secondDb(), { ...fanOutOptions, now }),
        sendDueNotifications(db(), { ...fanOutOptions, now }),
        sendDueNotifications(secondDb(), { ...fanOutOptions, now }),
      ]);
      expect(results.reduce((sum, result) => sum + result.notifications, 0)).toBe(3);
      expect(results.reduce((sum, result) => sum + result.emails, 0)).toBe(6);
      const rows = await outbox();
      expect(rows).toHaveLength(6);
      expect(new Set(rows.map((row) => row.idempotency_key)).size).toBe(6);
    });

    it("a re-run after a crash writes no email twice", async () => {
      const chapter = await createChapter(store, { title: "Crash" });
      expect((await sendDueNotifications(db(), { ...fanOutOptions, now: later() })).emails).toBe(2);
      // As if the claim had been lost: the fan-out runs again for the same notification.
      await db().updateTable("notifications").set({ status: "pending", sent_at: null }).execute();
      expect(await sendDueNotifications(secondDb(), { ...fanOutOptions, now: later() })).toEqual({
        notifications: 1,
        emails: 0,
        skippedSubscriberIds: [],
      });
      expect(await outbox()).toHaveLength(2);
      expect(await getNotificationForItem(db(), { type: "chapter", id: chapter.id })).toMatchObject({ status: "sent" });
    });
  });

  it("fans out in chunks, giving the event loop a turn between them, and a half-done fan-out is finished without doubles", async () => {
    const subscribers = Array.from({ length: 45 }, (_, index) => ({
      id: `sub-many-${String(index).padStart(2, "0")}`,
      email: `many${index}@example.test`,
      status: "active" as const,
      confirmed_at: hoursAgo(2),
    }));
    await db().insertInto("newsletter_subscribers").values(subscribers).execute();
    const chapter = await createChapter(store, { title: "Many readers" });
    const options = { ...fanOutOptions, now: later(), chunkSize: 10 };

    // Other work (a visitor's request) runs while the fan-out goes on: on SQLite, whose
    // driver never waits for I/O, only an explicit yield between chunks lets it.
    let turns = 0;
    const ticking = setInterval(() => {
      turns += 1;
    }, 0);
    const first = await sendDueNotifications(db(), options).finally(() => clearInterval(ticking));
    expect(first).toEqual({ notifications: 1, emails: 47, skippedSubscriberIds: [] });
    expect(turns).toBeGreaterThanOrEqual(3);

    // As if the process had died after three chunks: the notification still pending, some rows written.
    const notification = await getNotificationForItem(db(), { type: "chapter", id: chapter.id });
    const kept = (await outbox()).slice(0, 30).map((row) => row.id);
    await db().deleteFrom("email_outbox").where("id", "not in", kept).execute();
    await db().updateTable("notifications").set({ status: "pending", sent_at: null }).execute();
    expect(await sendDueNotifications(db(), options)).toEqual({
      notifications: 1,
      emails: 17,
      skippedSubscriberIds: [],
    });
    const rows = await outbox();
    expect(rows).toHaveLength(47);
    expect(new Set(rows.map((row) => row.to_address)).size).toBe(47);
    expect(rows.every((row) => row.batch_id === notification?.id)).toBe(true);
  });

  it("leaves out a subscriber whose stored address the mailer refuses, and sends to the others", async () => {
    await db()
      .insertInto("newsletter_subscribers")
      .values({ id: "sub-bad-address", email: "reader@localhost", status: "active", confirmed_at: hoursAgo(2) })
      .execute();
    const chapter = await createChapter(store, { title: "Despite one bad row" });
    const result = await sendDueNotifications(db(), { ...fanOutOptions, now: later() });
    expect(result).toMatchObject({ notifications: 1, skippedSubscriberIds: ["sub-bad-address"] });
    expect(result.emails).toBeGreaterThan(0);
    expect((await outbox()).map((row) => row.to_address)).not.toContain("reader@localhost");
    expect(await getNotificationForItem(db(), { type: "chapter", id: chapter.id })).toMatchObject({ status: "sent" });
  });

  it("the scheduler fans out what is due and wakes the mail worker", async () => {
    await createChapter({ ...f.store, notificationGraceMs: 0 }, { title: "Right away" });
    let wakes = 0;
    const scheduler = startNotificationScheduler({
      db: db(),
      logger,
      ...fanOutOptions,
      autoRun: false,
      onEmailsQueued: () => {
        wakes += 1;
      },
    });
    try {
      expect(await scheduler.runOnce()).toBe(2);
      expect(await scheduler.runOnce()).toBe(0);
      expect(wakes).toBe(1);
    } finally {
      await scheduler.stop();
    }
  });

  it("the default grace period is 2 minutes", async () => {
    expect(NOTIFICATION_GRACE_MS).toBe(120_000);
    const tip = await createTip(f.store, { title: "Default grace" });
    const notification = await getNotificationForItem(db(), { type: "tip", id: tip.id });
    expect(Date.parse(notification?.scheduled_for ?? "") - Date.parse(notification?.created_at ?? "")).toBe(120_000);
  });
});

describe("the notification email", () => {
  const base = {
    siteName: "Bastion",
    publicOrigin: ORIGIN,
    postType: "Blog Post",
    title: "A <b>bold</b> title",
    summary: "Line one\nline <two>",
    url: "/blog",
    unsubscribeUrl: `${ORIGIN}/newsletter/unsubscribe?token=abc`,
    oneClickUnsubscribeUrl: `${ORIGIN}/api/newsletter/unsubscribe?token=abc`,
  };

  it("has the title, summary, image, URL and a footer with the reason and unsubscribe link", () => {
    const email = renderNotificationEmail({ ...base, imageUrl: "/media/cover.png", subjectPrefix: "[TEST]" });
    expect(email.subject).toBe("[TEST] New Blog Post: A <b>bold</b> title");
    expect(email.html).toContain("A &lt;b&gt;bold&lt;/b&gt; title");
    expect(email.html).not.toContain("<b>bold");
    expect(email.html).toContain("Line one<br>line &lt;two&gt;");
    expect(email.html).toContain(`<img src="${ORIGIN}/media/cover.png"`);
    expect(email.html).toContain(`href="${ORIGIN}/blog"`);
    expect(email.html).toContain("because you subscribed to updates from Bastion");
    expect(email.html).toContain(`href="${ORIGIN}/newsletter/unsubscribe?token=abc"`);
    expect(email.text).toContain(`Read it now:\n${ORIGIN}/blog`);
    expect(email.text).toContain(`Image:\n${ORIGIN}/media/cover.png`);
    expect(email.text).toContain(`Unsubscribe: ${ORIGIN}/newsletter/unsubscribe?token=abc`);
    expect(email.headers).toEqual({
      "List-Unsubscribe": `<${ORIGIN}/api/newsletter/unsubscribe?token=abc>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
  });

  it("leaves out a missing or unsafe image, keeps the subject on one line, refuses an unsafe link", () => {
    const none = renderNotificationEmail({ ...base, title: "Two\r\nlines" });
    expect(none.html).not.toContain("<img");
    expect(none.subject).toBe("New Blog Post: Two lines");
    const unsafe = renderNotificationEmail({ ...base, imageUrl: "javascript:alert(1)" });
    expect(unsafe.html).not.toContain("<img");
    expect(unsafe.html).not.toContain("javascript:");
    expect(() => renderNotificationEmail({ ...base, url: "javascript:alert(1)" })).toThrow(/http/);
  });
});
