import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../server/db/connection.ts";
import { createLogger } from "../../server/logger.ts";
import { claimDueEmails, finishClaims } from "../../server/mail/outbox.ts";
import { type MailWorker, type MailWorkerOptions, NO_SMTP_REASON, startMailWorker } from "../../server/mail/worker.ts";
import { type MigratedDatabase, migratedDatabase, TEST_DIALECTS } from "../helpers/databases.ts";
import { enqueueTestEmail, mailConfig, memoryLogger, outboxRow, PUBLIC_URL, sleep } from "./helpers.ts";
import { type SmtpPeer, startSmtpPeer } from "./smtp-peer.ts";

const logger = createLogger({ level: "silent" });
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe.each(TEST_DIALECTS)("mail delivery through SMTP on %s", (dialect) => {
  let database: MigratedDatabase;
  let peer: SmtpPeer;
  const workers: MailWorker[] = [];
  const db = () => database.handle.db;

  function worker(options: Partial<MailWorkerOptions> = {}): MailWorker {
    const started = startMailWorker({ db: db(), config: mailConfig(peer.url), logger, autoRun: false, ...options });
    workers.push(started);
    return started;
  }

  beforeAll(async () => {
    database = await migratedDatabase(dialect);
    peer = await startSmtpPeer();
  });
  afterAll(async () => {
    await peer?.close();
    await database?.close();
  });
  beforeEach(async () => {
    peer.received.length = 0;
    peer.dataDelayMs = 0;
    await db().deleteFrom("email_outbox").execute();
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((started) => started.stop()));
  });

  it("delivers an enqueued email once, with both parts, the site name in From, a unique Message-ID and its headers", async () => {
    const headers = {
      "List-Unsubscribe": `<${PUBLIC_URL}/newsletter/unsubscribe?token=abc>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    };
    const first = await enqueueTestEmail(db(), "first", "ada@example.test", { headers });
    const second = await enqueueTestEmail(db(), "second", "grace@example.test");
    const mailer = worker();

    expect(await mailer.runOnce()).toBe(2);
    expect(peer.received).toHaveLength(2);

    const byRecipient = new Map(peer.received.map((message) => [message.envelopeTo[0], message.parsed]));
    const ada = byRecipient.get("ada@example.test");
    const grace = byRecipient.get("grace@example.test");
    if (!ada || !grace) throw new Error("a recipient got nothing");

    expect(ada.subject).toBe("Subject first");
    expect(ada.from?.value).toEqual([{ name: "Bastion", address: "no-reply@bastion.test" }]);
    expect(ada.text).toContain(`${PUBLIC_URL}/newsletter/confirm?token=first`);
    expect(ada.html).toContain(`href="${PUBLIC_URL}/newsletter/confirm?token=first"`);
    const headerLines = ada.headerLines.map((header) => header.line);
    expect(headerLines).toContain(`List-Unsubscribe: <${PUBLIC_URL}/newsletter/unsubscribe?token=abc>`);
    expect(headerLines).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    expect(grace.headerLines.map((header) => header.key)).not.toContain("list-unsubscribe");

    const firstRow = await outboxRow(db(), first.id);
    const secondRow = await outboxRow(db(), second.id);
    expect(ada.messageId).toBe(firstRow.message_id);
    expect(grace.messageId).toBe(secondRow.message_id);
    expect(ada.messageId).toMatch(/^<email-[a-z0-9-]+@bastion\.test>$/);
    expect(ada.messageId).not.toBe(grace.messageId);
    for (const row of [firstRow, secondRow]) {
      expect(row).toMatchObject({ status: "sent", attempts: 1, last_error: null, lease_expires_at: null });
      expect(row.sent_at).toMatch(ISO_TIMESTAMP);
    }

    expect(await mailer.runOnce()).toBe(0);
    expect(peer.received).toHaveLength(2);
  });

  it("sends once when the same idempotency key is enqueued twice", async () => {
    const first = await enqueueTestEmail(db(), "reset:same");
    const again = await enqueueTestEmail(db(), "reset:same");
    expect(again).toEqual({ id: first.id, created: false });
    const mailer = worker();
    expect(await mailer.runOnce()).toBe(1);
    const afterSending = await enqueueTestEmail(db(), "reset:same");
    expect(afterSending.created).toBe(false);
    expect(await mailer.runOnce()).toBe(0);
    expect(peer.received).toHaveLength(1);
  });

  it("wake() sends an email enqueued by a request within a second", async () => {
    const mailer = worker({ autoRun: true, pollIntervalMs: 60_000 });
    await sleep(50); // the start-up run has found nothing; the next poll is a minute away
    const started = Date.now();
    await enqueueTestEmail(db(), "woken");
    mailer.wake();
    mailer.wake();
    await peer.waitFor(1, 1_000);
    expect(Date.now() - started).toBeLessThan(1_000);
    // Stopped, the worker has finished every send it started: two wakes sent one email.
    await mailer.stop();
    expect(peer.received).toHaveLength(1);
  });

  it("two workers racing over the same rows send each row exactly once", async () => {
    const other = openDatabase(database.testDb.config);
    try {
      const total = 30;
      for (let index = 0; index < total; index++)
        await enqueueTestEmail(db(), `race:${index}`, `r${index}@example.test`);
      const one = worker({ concurrency: 4, claimSize: 4 });
      const two = worker({ db: other.db, concurrency: 4, claimSize: 4 });
      let handledByOne = 0;
      let handledByTwo = 0;
      for (let round = 0; round < 20; round++) {
        const [a, b] = await Promise.all([one.runOnce(), two.runOnce()]);
        handledByOne += a;
        handledByTwo += b;
        if (a + b === 0) break;
      }
      expect(handledByOne + handledByTwo).toBe(total);
      // Both took part: the rows really were contended.
      expect(Math.min(handledByOne, handledByTwo)).toBeGreaterThan(0);
      const recipients = peer.received.map((message) => message.envelopeTo[0]);
      expect(recipients).toHaveLength(total);
      expect(new Set(recipients).size).toBe(total);
      const statuses = await db().selectFrom("email_outbox").select(["status", "attempts"]).execute();
      expect(statuses.every((row) => row.status === "sent" && row.attempts === 1)).toBe(true);
    } finally {
      await other.close();
    }
  });

  it("takes over a row whose lease expired, leaves a live lease alone, and ignores the late writer", async () => {
    const { id } = await enqueueTestEmail(db(), "lease");
    // Another instance claims the row and "crashes" before sending it.
    const crashed = await claimDueEmails(db(), { now: new Date().toISOString(), leaseMs: 300, limit: 10 });
    expect(crashed.rows.map((row) => row.id)).toEqual([id]);
    const mailer = worker();

    expect(await mailer.runOnce()).toBe(0);
    expect((await outboxRow(db(), id)).status).toBe("sending");
    await sleep(350);
    expect(await mailer.runOnce()).toBe(1);
    expect(peer.received).toHaveLength(1);

    const row = await outboxRow(db(), id);
    expect(row).toMatchObject({ status: "sent", attempts: 2, lease_expires_at: null });
    // The crashed instance coming back cannot overwrite the outcome.
    const [stale] = crashed.rows;
    if (!stale) throw new Error("no claim");
    expect(
      await finishClaims(db(), [{ row: stale, outcome: { status: "sent", messageId: "<stale@bastion.test>" } }]),
    ).toEqual([false]);
    expect((await outboxRow(db(), id)).message_id).toBe(row.message_id);
  });

  it("sends each email once when a slow server makes sends outlast half a lease and another worker polls", async () => {
    // 300 ms a message and a 1.5 s lease: sends the pool queued behind others would start,
    // or still be under way, after their lease expired and the other worker took them.
    // A send starts only with half the lease left and takes 0.3 s: room for a busy machine.
    peer.dataDelayMs = 300;
    for (let index = 0; index < 30; index++) await enqueueTestEmail(db(), `slow:${index}`, `s${index}@example.test`);
    const one = worker({ leaseMs: 1_500 });
    const two = worker({ leaseMs: 1_500 });
    const first = one.runOnce();
    await sleep(1_600);
    await Promise.all([first, two.runOnce()]);
    // The emails given back rather than started late leave at the next runs.
    for (let round = 0; round < 20; round++) {
      if ((await one.runOnce()) + (await two.runOnce()) === 0) break;
    }
    const recipients = peer.received.map((message) => message.envelopeTo[0]);
    expect(recipients).toHaveLength(30);
    expect(new Set(recipients).size).toBe(30);
  });

  it("renews its lease while a send outlasts it: another worker polling meanwhile takes nothing", async () => {
    // 2 s for the message against a 1 s lease, renewed every third of a second.
    peer.dataDelayMs = 2_000;
    const { id } = await enqueueTestEmail(db(), "outlasting");
    const one = worker({ leaseMs: 1_000 });
    const two = worker({ leaseMs: 1_000 });
    const sending = peer.nextData();
    const run = one.runOnce();
    await sending;
    // Past the lease taken with the claim.
    await sleep(1_400);
    expect(await two.runOnce()).toBe(0);
    expect(await run).toBe(1);
    expect(peer.received).toHaveLength(1);
    // Recorded against the renewed lease.
    expect(await outboxRow(db(), id)).toMatchObject({ status: "sent", attempts: 1, lease_expires_at: null });
  });

  it("stop() finishes the send in progress, then sends nothing more", async () => {
    peer.dataDelayMs = 300;
    const { id } = await enqueueTestEmail(db(), "in-progress");
    const mailer = worker();
    const sending = peer.nextData();
    const run = mailer.runOnce();
    await sending;
    await mailer.stop();
    expect(await run).toBe(1);
    expect((await outboxRow(db(), id)).status).toBe("sent");
    expect(peer.received).toHaveLength(1);

    await enqueueTestEmail(db(), "after-stop");
    expect(await mailer.runOnce()).toBe(0);
  });

  it("stop() gives back the claimed emails it has not started, without counting an attempt", async () => {
    peer.dataDelayMs = 300;
    const ids: string[] = [];
    for (let index = 0; index < 3; index++) ids.push((await enqueueTestEmail(db(), `queued:${index}`)).id);
    const mailer = worker({ concurrency: 1, claimSize: 3 });
    const sending = peer.nextData();
    const run = mailer.runOnce();
    await sending;
    await mailer.stop();
    expect(await run).toBe(3);
    expect(peer.received).toHaveLength(1);
    const rows = await Promise.all(ids.map((id) => outboxRow(db(), id)));
    expect(rows.filter((row) => row.status === "sent")).toHaveLength(1);
    expect(rows.filter((row) => row.status === "pending")).toEqual([
      expect.objectContaining({ attempts: 0, lease_expires_at: null }),
      expect.objectContaining({ attempts: 0, lease_expires_at: null }),
    ]);
  });

  it("records the outcomes of a whole claimed batch, all sent, at the end of the run", async () => {
    for (let index = 0; index < 120; index++) await enqueueTestEmail(db(), `batch:${index}`, `b${index}@example.test`);
    const mailer = worker({ claimSize: 50 });
    expect(await mailer.runOnce()).toBe(120);
    expect(peer.received).toHaveLength(120);
    const statuses = await db().selectFrom("email_outbox").select(["status", "attempts", "message_id"]).execute();
    expect(statuses.every((row) => row.status === "sent" && row.attempts === 1 && row.message_id)).toBe(true);
  });
});

describe.each(TEST_DIALECTS)("mail without SMTP_URL on %s", (dialect) => {
  let database: MigratedDatabase;

  beforeAll(async () => {
    database = await migratedDatabase(dialect);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("keeps the email as unsent and logs its subject, recipient and link at info level", async () => {
    const { logger: memory, lines } = memoryLogger();
    const mailer = startMailWorker({ db: database.handle.db, config: mailConfig(), logger: memory, autoRun: false });
    try {
      const { id } = await enqueueTestEmail(database.handle.db, "confirm:local", "local@example.test", {
        subject: "Confirm your subscription",
      });
      expect(await mailer.runOnce()).toBe(1);

      const row = await outboxRow(database.handle.db, id);
      expect(row).toMatchObject({
        status: "unsent",
        last_error: NO_SMTP_REASON,
        sent_at: null,
        lease_expires_at: null,
      });
      const link = `${PUBLIC_URL}/newsletter/confirm?token=confirm%3Alocal`;
      const line = lines().find((entry) => String(entry.msg).includes("Confirm your subscription"));
      expect(line).toBeDefined();
      expect(line?.level).toBe(30);
      expect(line?.msg).toContain(link);
      expect(line?.msg).toContain("local@example.test");
      expect(line).toMatchObject({ subject: "Confirm your subscription", to: "local@example.test" });
      expect(line?.links).toContain(link);

      expect(await mailer.runOnce()).toBe(0);
    } finally {
      await mailer.stop();
    }
  });
});
