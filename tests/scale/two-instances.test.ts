import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoredImage } from "../../app/components/media/media-api.ts";
import type { DatabaseHandle } from "../../server/db/connection.ts";
import { type S3TestServer, startS3Server } from "../helpers/s3-server.ts";
import type { RunningServer } from "../helpers/server.ts";
import { type CountingPeer, deliveriesPerRecipient, startCountingPeer } from "../helpers/smtp-counter.ts";
import { request } from "../http/client.ts";
import { BOUNDARY, multipartBody } from "../http/media-client.ts";
import { jpegWithExif } from "../media/images.ts";
import { type Cluster, HAS_POSTGRES, header, postForm, signInThrough, startCluster, timeUntil } from "./cluster.ts";
import { SITE_WRITES } from "./site-writes.ts";

/**
 * Two real server processes (the built server, each with its own port, DATA_DIR and
 * workers) on one PostgreSQL database, one S3 bucket (s3rver) and one SMTP peer, as
 * behind a load balancer: a session made on one is honoured by the other, a content
 * write of each kind on one shows on the other's cached page within a second
 * (LISTEN/NOTIFY), an upload made on one is listed and linked by the other, and a
 * notification fanned out while both mail workers run reaches each subscriber exactly
 * once. Limits, roles and text messages: two-instances-state.test.ts. PostgreSQL only:
 * SQLite is one file of one process.
 */

const PUBLIC_URL = "http://bastion-cluster.test";
const SUBSCRIBERS = 500;
const EDITOR = { email: "casey.cluster@example.com", name: "Casey Cluster", role: "editor" as const };
const ADMIN = { email: "ada.cluster@example.com", name: "Ada Cluster", role: "admin" as const };
const subscriber = (index: number) => `cluster-reader-${String(index).padStart(3, "0")}@example.test`;
/** A content write must reach the other instance's pages within this (the product's promise). */
const VISIBLE_WITHIN_MS = 1_000;

describe.skipIf(!HAS_POSTGRES)("two instances behind a load balancer (PostgreSQL, S3)", () => {
  let s3: S3TestServer;
  let smtp: CountingPeer;
  let cluster: Cluster;
  let database: DatabaseHandle;
  let a: RunningServer;
  let b: RunningServer;
  let editor: string;
  let admin: string;

  beforeAll(async () => {
    s3 = await startS3Server();
    smtp = await startCountingPeer();
    cluster = await startCluster({
      instances: 2,
      publicUrl: PUBLIC_URL,
      env: {
        ...s3.env,
        SMTP_URL: smtp.url,
        // Each sign-in below comes from its own made-up client address (X-Forwarded-For).
        TRUST_PROXY: "1",
        // Each worker finds the other instance's emails within 0.2 s, as MAIL_POLL_SECONDS promises.
        MAIL_POLL_SECONDS: "0.2",
        NEWSLETTER_POLL_SECONDS: "0.2",
      },
      // The SMTP peer tells which instance sent a message by its envelope sender.
      instanceEnv: (index) => ({ MAIL_FROM: `instance-${index}@bastion-cluster.test` }),
      accounts: [EDITOR, ADMIN],
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
    admin = (await signInThrough(b.url, PUBLIC_URL, ADMIN.email, { clientIp: "10.20.0.2" })).cookie;
  });

  afterAll(async () => {
    await database?.close();
    await cluster?.stop();
    await smtp?.stop();
    await s3?.close();
  });

  it("honours on B the session cookie that signing in on A set", async () => {
    expect(editor).toMatch(/bastion\.session_token=/);
    const session = await request(`${b.url}/api/auth/get-session`, { headers: { Cookie: editor } });
    expect(session.status).toBe(200);
    expect(JSON.parse(session.text())?.user?.email).toBe(EDITOR.email);
    const page = await request(`${b.url}/admin/tips`, { headers: { Cookie: editor, Accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(page.text()).toContain(EDITOR.name);
    const anonymous = await request(`${b.url}/admin/tips`, { headers: { Accept: "text/html" } });
    expect(anonymous.status).toBe(302);
  });

  it.each(SITE_WRITES.map((write, index) => [write.what, write, index] as const))(
    "shows %s, saved on one instance, on the other's cached page within a second",
    async (_what, write, index) => {
      // Each write goes the other way from the one before it.
      const [writer, reader] = index % 2 === 0 ? [a, b] : [b, a];
      // The page is in the reader's page cache before the write.
      await request(`${reader.url}${write.page}`);
      expect(header(await request(`${reader.url}${write.page}`), "x-page-cache")).toBe("hit");
      const value = write.value();

      const cookie = write.role === "admin" ? admin : editor;
      const fields = await write.fields(value, database.db);
      const written = await postForm(writer.url, PUBLIC_URL, write.screen, cookie, fields);
      const committed = performance.now();
      expect(written.status, written.text().slice(0, 300)).toBeLessThan(400);

      const elapsed = await timeUntil(
        async () => (await request(`${reader.url}${write.page}`)).text().includes(value),
        {
          since: committed,
          everyMs: 10,
          timeoutMs: 10_000,
          what: `${write.what} on ${write.page}`,
        },
      );
      process.stdout.write(
        `two instances: ${write.what} reached the other instance's page in ${elapsed.toFixed(0)} ms\n`,
      );
      expect(elapsed).toBeLessThan(VISIBLE_WITHIN_MS);
      // The writer shows it too.
      expect((await request(`${writer.url}${write.page}`)).text()).toContain(value);
    },
  );

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
      smtp.messages.filter((message) => message.to.every((to) => to.startsWith("cluster-reader-")));
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
});
