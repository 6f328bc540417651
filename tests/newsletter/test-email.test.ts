import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Invalid } from "../../server/errors.ts";
import { listNotificationsWithProgress } from "../../server/newsletter/notifications.ts";
import { sendTestEmail } from "../../server/newsletter/test-email.ts";
import {
  TEST_EMAIL_INVALID_MESSAGE,
  TEST_EMAIL_REQUIRED_MESSAGE,
  testEmailSchema,
} from "../../server/newsletter/test-email-input.ts";
import { type MigratedDatabase, migratedDatabase, TEST_DIALECTS } from "../helpers/databases.ts";
import { PUBLIC_URL } from "../mail/helpers.ts";

/**
 * The admin's test email (Newsletter Settings): validation of the spec's
 * payload, and the outbox row it leaves (subject prefix, escaping, both parts), plus
 * the admin's progress per notification.
 */

const deps = { config: { publicOrigin: PUBLIC_URL }, siteName: "Bastion" };

describe("the test email payload", () => {
  const firstMessage = (input: unknown) => testEmailSchema.safeParse(input).error?.issues[0]?.message;
  it("requires a recipient and a valid address", () => {
    expect(firstMessage({})).toBe(TEST_EMAIL_REQUIRED_MESSAGE);
    expect(firstMessage({ email: "   " })).toBe(TEST_EMAIL_REQUIRED_MESSAGE);
    expect(firstMessage({ email: "nope" })).toBe(TEST_EMAIL_INVALID_MESSAGE);
  });
  it("treats empty and null optional fields as absent", () => {
    const parsed = testEmailSchema.safeParse({ email: "a@example.test", post_title: "", post_image: null });
    expect(parsed.data).toEqual({ email: "a@example.test" });
  });
});

describe.each(TEST_DIALECTS)("the test email on %s", (dialect) => {
  let database: MigratedDatabase;
  const db = () => database.handle.db;

  beforeAll(async () => {
    database = await migratedDatabase(dialect);
  });
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(async () => {
    await db().deleteFrom("email_outbox").execute();
    await db().deleteFrom("newsletter_suppressions").execute();
    await db().deleteFrom("notifications").execute();
  });

  const row = (id: string) =>
    db().selectFrom("email_outbox").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

  it("queues the notification template with a [TEST] prefix, escaped, with both parts", async () => {
    const result = await sendTestEmail(db(), deps, {
      email: "  Admin@Example.TEST ",
      post_title: 'Breaking <script>alert("x")</script> & more',
      post_summary: "Line one\n<b>bold?</b>",
      post_image: "https://cdn.example.test/a.png?x=1&y=2",
      post_url: "https://example.test/blog/post?a=1&b=2",
    });
    const email = await row(result.id);
    expect(email.to_address).toBe("admin@example.test");
    expect(email.kind).toBe("newsletter-test");
    expect(email.status).toBe("pending");
    expect(email.idempotency_key).toMatch(/^test:[0-9a-f-]{36}$/);
    expect(email.subject).toBe('[TEST] New Blog Post: Breaking <script>alert("x")</script> & more');
    expect(email.html_body).not.toContain("<script>");
    expect(email.html_body).toContain("Breaking &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more");
    expect(email.html_body).toContain("&lt;b&gt;bold?&lt;/b&gt;");
    expect(email.html_body).toContain('href="https://example.test/blog/post?a=1&amp;b=2"');
    expect(email.html_body).toContain('src="https://cdn.example.test/a.png?x=1&amp;y=2"');
    expect(email.text_body).toContain("New Blog Post: Breaking <script>");
    expect(email.text_body).toContain("Read it now:\nhttps://example.test/blog/post?a=1&b=2");
    expect(email.text_body).toContain(`Unsubscribe: ${PUBLIC_URL}/newsletter/unsubscribe`);
    const headers = typeof email.headers === "string" ? JSON.parse(email.headers) : email.headers;
    expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
  });

  it("uses the defaults, a custom post type, and a fresh key every time", async () => {
    const first = await sendTestEmail(db(), deps, { email: "a@example.test" });
    const second = await sendTestEmail(db(), deps, { email: "a@example.test", post_type: "Tip" });
    expect(first.id).not.toBe(second.id);
    expect((await row(first.id)).subject).toBe("[TEST] New Blog Post: Sample post");
    expect((await row(first.id)).text_body).toContain(`Read it now:\n${PUBLIC_URL}/`);
    expect((await row(second.id)).subject).toBe("[TEST] New Tip: Sample post");
  });

  it("refuses a missing recipient, an unsafe link and a suppressed address beside their fields, queuing nothing", async () => {
    await expect(sendTestEmail(db(), deps, { post_title: "x" })).rejects.toMatchObject({
      fields: { email: TEST_EMAIL_REQUIRED_MESSAGE },
    });
    const unsafe = sendTestEmail(db(), deps, { email: "a@example.test", post_url: "javascript:alert(1)" });
    await expect(unsafe).rejects.toBeInstanceOf(Invalid);
    await expect(unsafe).rejects.toMatchObject({ fields: { post_url: expect.stringContaining("javascript:") } });
    await db()
      .insertInto("newsletter_suppressions")
      .values({ id: "sup-1", email: "blocked@example.test", reason: "Complaint" })
      .execute();
    await expect(sendTestEmail(db(), deps, { email: "Blocked@example.test" })).rejects.toMatchObject({
      fields: { email: "This address is on the suppression list" },
    });
    const { n } = await db()
      .selectFrom("email_outbox")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(n)).toBe(0);
  });

  it("lists notifications newest first with their queued, sent and failed emails", async () => {
    await db()
      .insertInto("notifications")
      .values([
        {
          id: "n-old",
          item_type: "tip",
          item_id: "tip-1",
          title: "Old tip",
          url: "/blog",
          status: "sent",
          created_at: "2026-01-01T00:00:00.000Z",
          scheduled_for: "2026-01-01T00:02:00.000Z",
          sent_at: "2026-01-01T00:02:05.000Z",
        },
        {
          id: "n-new",
          item_type: "chapter",
          item_id: "chapter-1",
          title: "New chapter",
          url: "/projects/1",
          status: "pending",
          created_at: "2026-02-01T00:00:00.000Z",
          scheduled_for: "2026-02-01T00:02:00.000Z",
          sent_at: null,
        },
      ])
      .execute();
    const statuses = ["pending", "sending", "sent", "sent", "failed", "unsent"] as const;
    await db()
      .insertInto("email_outbox")
      .values(
        statuses.map((status, index) => ({
          id: `e-${index}`,
          idempotency_key: `notify:n-old:sub-${index}`,
          kind: "notification",
          batch_id: "n-old",
          to_address: `s${index}@example.test`,
          subject: "New tip: Old tip",
          html_body: "<p>x</p>",
          text_body: "x",
          status,
        })),
      )
      .execute();
    const list = await listNotificationsWithProgress(db());
    expect(list.map((notification) => notification.id)).toEqual(["n-new", "n-old"]);
    expect(list[0]).toMatchObject({ title: "New chapter", item_type: "chapter", status: "pending", sent_at: null });
    expect(list[0]?.progress).toEqual({ queued: 0, sent: 0, failed: 0 });
    expect(list[1]?.progress).toEqual({ queued: 2, sent: 2, failed: 2 });
  });
});
