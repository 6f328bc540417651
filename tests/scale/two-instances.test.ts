import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoredImage } from "../../app/components/media/media-api.ts";
import type { DatabaseHandle } from "../../server/db/connection.ts";
import { type S3TestServer, startS3Server } from "../helpers/s3-server.ts";
import type { RunningServer } from "../helpers/server.ts";
import { request } from "../http/client.ts";
import { BOUNDARY, multipartBody } from "../http/media-client.ts";
import { jpegWithExif } from "../media/images.ts";
import { type Cluster, HAS_POSTGRES, header, postForm, signInThrough, startCluster, timeUntil } from "./cluster.ts";
import { type SmsReceiver, startSmsReceiver } from "./sms-receiver.ts";
import { deliveriesPerRecipient, type RecipientCollector, startRecipientCollector } from "./smtp-recipients.ts";

/**
 * Two real server processes (the built server, each with its own port, DATA_DIR and
 * workers) on one PostgreSQL database, one S3 bucket (s3rver) and one SMTP peer, as
 * behind a load balancer: a session made on one is honoured by the other, a content
 * write on one shows on the other's cached page within a second (LISTEN/NOTIFY), rate
 * limits are counted once for both, a notification fanned out while both mail workers
 * run reaches each subscriber exactly once, and an upload made on one is listed and
 * linked by the other. PostgreSQL only: SQLite is one file of one process.
 */

const PUBLIC_URL = "http://bastion-cluster.test";
const SUBSCRIBERS = 500;
/**
 * Text messages, each answered by the provider after SMS_DELAY_MS. A worker sends them one
 * after another, claiming 20 at a time: alone, it would still be claiming more 5 s (its
 * poll interval) after it started, by when the other worker has polled and claimed some.
 */
const TEXT_MESSAGES = 80;
const SMS_DELAY_MS = 120;
const EDITOR = { email: "casey.cluster@example.com", name: "Casey Cluster", role: "editor" as const };
const subscriber = (index: number) => `cluster-reader-${String(index).padStart(3, "0")}@example.test`;
/** A content write must reach the other instance's pages within this (the product's promise). */
const VISIBLE_WITHIN_MS = 1_000;

describe.skipIf(!HAS_POSTGRES)("two instances behind a load balancer (PostgreSQL, S3)", () => {
  let s3: S3TestServer;
  let smtp: RecipientCollector;
  let sms: SmsReceiver;
  let cluster: Cluster;
  let database: DatabaseHandle;
  let a: RunningServer;
  let b: RunningServer;
  let editor: string;

  beforeAll(async () => {
    s3 = await startS3Server();
    smtp = await startRecipientCollector();
    sms = await startSmsReceiver(SMS_DELAY_MS);
    cluster = await startCluster({
      instances: 2,
      publicUrl: PUBLIC_URL,
      env: {
        ...s3.env,
        SMTP_URL: smtp.url,
        // Sign-in attempts below come from made-up client addresses (X-Forwarded-For).
        TRUST_PROXY: "1",
        // Each worker finds the other instance's emails within 0.2 s, as MAIL_POLL_SECONDS promises.
        MAIL_POLL_SECONDS: "0.2",
        NEWSLETTER_POLL_SECONDS: "0.2",
      },
      // The SMTP peer and the SMS endpoint tell which instance sent a message by its sender.
      instanceEnv: (index) => ({
        MAIL_FROM: `instance-${index}@bastion-cluster.test`,
        SMS_URL: sms.urlFor(`instance-${index}`),
      }),
      accounts: [EDITOR],
      seed: async ({ db }) => {
        // Off until the notification test: the edits before it must not email anyone.
        await db
          .insertInto("newsletter_settings")
          .values({ setting_key: "auto_send_enabled", setting_value: "false" })
          .onConflict((conflict) => conflict.column("setting_key").doUpdateSet({ setting_value: "false" }))
          .execute();
        const confirmedAt = new Date(Date.now() - 86_400_000).toISOString();
        const rows = Array.from({ length: SUBSCRIBERS }, (_, index) => ({
          id: `sub-cluster-${index}`,
          email: subscriber(index),
          status: "active" as const,
          confirmed_at: confirmedAt,
        }));
        await db.insertInto("newsletter_subscribers").values(rows).execute();
      },
    });
    [a, b] = cluster.instances as [RunningServer, RunningServer];
    database = await cluster.openDatabase();
    const signedIn = await signInThrough(a.url, PUBLIC_URL, EDITOR.email, { clientIp: "10.20.0.1" });
    expect(signedIn.response.status).toBe(200);
    editor = signedIn.cookie;
  });

  afterAll(async () => {
    await database?.close();
    await cluster?.stop();
    await smtp?.close();
    await sms?.close();
    await s3?.close();
  });

  it("honours on B the session cookie that signing in on A set", async () => {
    expect(editor).toMatch(/bastion\.session_token=/);
    const session = await request(`${b.url}/api/auth/get-session`, { headers: { Cookie: editor } });
    expect(session.status).toBe(200);
    expect(JSON.parse(session.text())?.user?.email).toBe(EDITOR.email);
    const admin = await request(`${b.url}/admin/tips`, { headers: { Cookie: editor, Accept: "text/html" } });
    expect(admin.status).toBe(200);
    expect(admin.text()).toContain(EDITOR.name);
    const anonymous = await request(`${b.url}/admin/tips`, { headers: { Accept: "text/html" } });
    expect(anonymous.status).toBe(302);
  });

  it("counts sign-in attempts on both instances against one limit", async () => {
    // Better Auth allows 5 sign-in attempts a minute per client address (server/auth/auth.ts).
    const attempt = (instance: RunningServer) =>
      signInThrough(instance.url, PUBLIC_URL, "nobody@example.com", {
        password: "wrong password 123",
        clientIp: "10.20.0.99",
      });
    const statuses: number[] = [];
    for (const instance of [a, b, a, b, a]) statuses.push((await attempt(instance)).response.status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    expect((await attempt(b)).response.status).toBe(429);
    expect((await attempt(a)).response.status).toBe(429);
  });

  it("counts subscriptions of one address on both instances against one limit", async () => {
    // 5 an hour per address (server/newsletter/api.ts); each attempt from another client address.
    const subscribe = (instance: RunningServer, attempt: number) => {
      const body = JSON.stringify({ email: "limited.reader@example.test" });
      return request(`${instance.url}/api/newsletter/subscribe`, {
        method: "POST",
        headers: {
          Origin: PUBLIC_URL,
          "Content-Type": "application/json",
          "Content-Length": String(Buffer.byteLength(body)),
          "X-Forwarded-For": `10.30.0.${attempt}`,
        },
        body,
      });
    };
    const statuses: number[] = [];
    for (const [attempt, instance] of [a, b, a, b, a, b].entries())
      statuses.push((await subscribe(instance, attempt)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it("shows an edit made on A on B's cached public page within a second", async () => {
    // B's page is in B's page cache before the write.
    await request(`${b.url}/blog`);
    const cached = await request(`${b.url}/blog`);
    expect(header(cached, "x-page-cache")).toBe("hit");
    const title = `Written on A ${Date.now()}`;

    const written = await postForm(a.url, PUBLIC_URL, "/admin/tips", editor, {
      intent: "create-tip",
      title,
      category: "AWS",
    });
    const committed = performance.now();
    expect(written.status, written.text().slice(0, 500)).toBeLessThan(400);
    const saved = await database.db.selectFrom("tips_resources").select("id").where("title", "=", title).execute();
    expect(saved).toHaveLength(1);

    const elapsed = await timeUntil(async () => (await request(`${b.url}/blog`)).text().includes(title), {
      since: committed,
      everyMs: 10,
      timeoutMs: 10_000,
      what: `The tip "${title}" on B's /blog`,
    });
    process.stdout.write(`two instances: an edit on A reached B's cached page in ${elapsed.toFixed(0)} ms\n`);
    expect(elapsed).toBeLessThan(VISIBLE_WITHIN_MS);
    // And A shows it too, from its own cache.
    expect((await request(`${a.url}/blog`)).text()).toContain(title);
  });

  it("lists and links on B an image uploaded on A, served from the shared bucket", async () => {
    const body = multipartBody(await jpegWithExif(1000, 700), "shared.jpg", { alt: "Shared photo" });
    const uploaded = await request(`${a.url}/api/media`, {
      method: "POST",
      headers: {
        Origin: PUBLIC_URL,
        Cookie: editor,
        "Content-Type": `multipart/form-data; boundary=${BOUNDARY}`,
        "Content-Length": String(body.length),
      },
      body,
    });
    expect(uploaded.status, uploaded.text()).toBe(201);
    const image = JSON.parse(uploaded.text()) as StoredImage;
    expect(image.url.startsWith(`${s3.endpoint}/${s3.bucket}/`)).toBe(true);

    const listed = await request(`${b.url}/api/media`, { headers: { Cookie: editor } });
    expect(listed.status).toBe(200);
    const { media } = JSON.parse(listed.text()) as { media: Array<{ id: string; url: string }> };
    expect(media.map((item) => item.url)).toContain(image.url);
    const served = await fetch(image.url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/jpeg");

    // A chapter made on A, its image section added on B: both instances' pages link the variants.
    const title = `Shared media ${Date.now()}`;
    const fields = { intent: "create-chapter", title, published: "on" };
    expect((await postForm(a.url, PUBLIC_URL, "/admin/projects", editor, fields)).status).toBeLessThan(400);
    const chapter = await database.db
      .selectFrom("chapters")
      .select(["id", "slug"])
      .where("title", "=", title)
      .executeTakeFirstOrThrow();
    const section = await postForm(b.url, PUBLIC_URL, "/admin/projects", editor, {
      intent: "add-section",
      chapterId: chapter.id,
      type: "image",
      content: image.url,
      alt: "Shared photo",
    });
    expect(section.status).toBeLessThan(400);
    for (const instance of [a, b]) {
      const page = await request(`${instance.url}/projects/${chapter.slug}`);
      expect(page.status).toBe(200);
      for (const variant of image.variants)
        expect(page.text(), instance.url).toContain(`${variant.url} ${variant.width}w`);
    }
  });

  it(`delivers a notification queued on A to each of ${SUBSCRIBERS} subscribers exactly once, both workers sending`, async () => {
    await database.db
      .updateTable("newsletter_settings")
      .set({ setting_value: "true" })
      .where("setting_key", "=", "auto_send_enabled")
      .execute();
    const title = `Announced from A ${Date.now()}`;
    const written = await postForm(a.url, PUBLIC_URL, "/admin/tips", editor, {
      intent: "create-tip",
      title,
      category: "Career",
      url: "https://example.com/announced",
    });
    expect(written.status).toBeLessThan(400);
    // The notification waits out its 2-minute grace period in production; here it is due now,
    // and both instances' schedulers race for it.
    const scheduled = await database.db
      .updateTable("notifications")
      .set({ scheduled_for: new Date(Date.now() - 1_000).toISOString() })
      .where("title", "=", title)
      .where("status", "=", "pending")
      .executeTakeFirst();
    expect(Number(scheduled.numUpdatedRows)).toBe(1);

    // Only the notification's messages (the subscription test above sent confirmations).
    const notified = () =>
      smtp.accepted.filter((message) => message.to.every((to) => to.startsWith("cluster-reader-")));
    await timeUntil(async () => notified().length >= SUBSCRIBERS, {
      since: performance.now(),
      everyMs: 100,
      timeoutMs: 60_000,
      what: `${SUBSCRIBERS} notification messages at the SMTP peer`,
    });
    // Every row recorded as sent, then a moment for any late duplicate to arrive.
    await timeUntil(
      async () => {
        const unsent = await database.db
          .selectFrom("email_outbox")
          .select((eb) => eb.fn.countAll<string>().as("n"))
          .where("status", "!=", "sent")
          .executeTakeFirstOrThrow();
        return Number(unsent.n) === 0;
      },
      { since: performance.now(), everyMs: 100, timeoutMs: 30_000, what: "Every outbox row sent" },
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    const perRecipient = deliveriesPerRecipient(notified());
    expect(perRecipient.size).toBe(SUBSCRIBERS);
    const repeated = [...perRecipient].filter(([, count]) => count !== 1);
    expect(repeated).toEqual([]);
    for (let index = 0; index < SUBSCRIBERS; index++) expect(perRecipient.get(subscriber(index))).toBe(1);
    const bySender = new Map<string, number>();
    for (const message of notified()) bySender.set(message.from, (bySender.get(message.from) ?? 0) + 1);
    process.stdout.write(
      `two instances: messages per sending instance ${JSON.stringify(Object.fromEntries(bySender))}\n`,
    );
    expect([...bySender.keys()].sort()).toEqual(["instance-0@bastion-cluster.test", "instance-1@bastion-cluster.test"]);
  });

  it(`sends each of ${TEXT_MESSAGES} text messages once, both SMS workers sending`, async () => {
    const expiresAt = new Date(Date.now() + 10 * 60_000).toISOString();
    const rows = Array.from({ length: TEXT_MESSAGES }, (_, index) => ({
      id: `sms-cluster-${index}`,
      kind: "two-factor-code",
      user_id: null,
      to_number: `+4915100000${String(index).padStart(3, "0")}`,
      body: `Your code is ${String(100000 + index)}`,
      expires_at: expiresAt,
    }));
    await database.db.insertInto("sms_outbox").values(rows).execute();

    await timeUntil(async () => sms.received.length >= TEXT_MESSAGES, {
      since: performance.now(),
      everyMs: 100,
      timeoutMs: 60_000,
      what: `${TEXT_MESSAGES} text messages at the provider`,
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const ids = sms.received.map((message) => message.id);
    expect(ids.length).toBe(TEXT_MESSAGES);
    expect(new Set(ids)).toEqual(new Set(rows.map((row) => row.id)));
    const bySender = new Map<string, number>();
    for (const message of sms.received) bySender.set(message.sender, (bySender.get(message.sender) ?? 0) + 1);
    process.stdout.write(
      `two instances: text messages per sending instance ${JSON.stringify(Object.fromEntries(bySender))}\n`,
    );
    expect([...bySender.keys()].sort()).toEqual(["instance-0", "instance-1"]);
  });
});
