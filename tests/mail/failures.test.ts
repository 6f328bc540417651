import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "../../server/logger.ts";
import { type OutboxRow, retryEmail } from "../../server/mail/outbox.ts";
import { type MailWorker, type MailWorkerOptions, retryDelayMs, startMailWorker } from "../../server/mail/worker.ts";
import { type MigratedDatabase, migratedDatabase, TEST_DIALECTS } from "../helpers/databases.ts";
import { enqueueTestEmail, mailConfig, outboxRow, sleep, waitUntilDue } from "./helpers.ts";
import { type SmtpPeer, startSmtpPeer } from "./smtp-peer.ts";

const logger = createLogger({ level: "silent" });

describe("retry delays", () => {
  it("double at each attempt, with jitter between half and all of the step, up to the cap", () => {
    expect(retryDelayMs(1, 1_000, 60_000, () => 0)).toBe(500);
    expect(retryDelayMs(1, 1_000, 60_000, () => 1)).toBe(1_000);
    expect(retryDelayMs(2, 1_000, 60_000, () => 1)).toBe(2_000);
    expect(retryDelayMs(4, 1_000, 60_000, () => 0.5)).toBe(6_000);
    expect(retryDelayMs(30, 1_000, 60_000, () => 1)).toBe(60_000);
    expect(retryDelayMs(30, 1_000, 60_000, () => 0)).toBe(30_000);
  });
});

describe.each(TEST_DIALECTS)("mail delivery failures on %s", (dialect) => {
  let database: MigratedDatabase;
  let peer: SmtpPeer;
  const workers: MailWorker[] = [];
  const db = () => database.handle.db;

  function worker(options: Partial<MailWorkerOptions> = {}, smtpUrl = peer.url): MailWorker {
    const started = startMailWorker({
      db: db(),
      config: mailConfig(smtpUrl),
      logger,
      autoRun: false,
      retryBaseMs: 200,
      retryMaxMs: 10_000,
      ...options,
    });
    workers.push(started);
    return started;
  }

  /** The recipient is refused with `code` the first `times` times (forever when omitted). */
  function refuse(code: number, message: string, times = Number.POSITIVE_INFINITY): void {
    let refused = 0;
    peer.rejectRecipient = () => (refused++ < times ? { code, message } : undefined);
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
    peer.rejectRecipient = () => undefined;
    await db().deleteFrom("email_outbox").execute();
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((started) => started.stop()));
  });

  it("retries a 451 on RCPT with growing, jittered delays, then delivers", async () => {
    refuse(451, "Greylisted, try again later", 2);
    const { id } = await enqueueTestEmail(db(), "greylisted");
    const mailer = worker();

    // The delay is drawn when the attempt fails, somewhere between `before` and `after`:
    // bounding next_attempt_at from both sides checks it without timing the machine.
    const windows: Array<{ earliest: number; latest: number }> = [];
    for (const attempt of [1, 2]) {
      const before = Date.now();
      expect(await mailer.runOnce()).toBe(1);
      const after = Date.now();
      const row = await outboxRow(db(), id);
      expect(row).toMatchObject({ status: "pending", attempts: attempt, sent_at: null, lease_expires_at: null });
      expect(row.last_error).toContain("451");
      const next = Date.parse(row.next_attempt_at);
      windows.push({ earliest: next - after, latest: next - before });
      expect(await mailer.runOnce()).toBe(0); // not due yet
      await waitUntilDue(db(), id);
    }
    // 200 ms base: the first delay is within [100, 200] ms, the second within [200, 400] ms.
    expect(windows[0]!.latest).toBeGreaterThanOrEqual(100 - 5);
    expect(windows[0]!.earliest).toBeLessThanOrEqual(200 + 5);
    expect(windows[1]!.latest).toBeGreaterThanOrEqual(200 - 5);
    expect(windows[1]!.earliest).toBeLessThanOrEqual(400 + 5);

    expect(await mailer.runOnce()).toBe(1);
    expect(await outboxRow(db(), id)).toMatchObject({ status: "sent", attempts: 3, last_error: null });
    expect(peer.received).toHaveLength(1);
  });

  it("refuses at send time the recipients that refuseRecipients names, without contacting the server for them", async () => {
    const { id: refused } = await enqueueTestEmail(db(), "suppressed-since");
    const { id: kept } = await enqueueTestEmail(db(), "still-welcome");
    const mailer = worker({
      refuseRecipients: async (emails) =>
        new Map(emails.filter((email) => email.id === refused).map((email) => [email.id, "Not sent: suppressed"])),
    });
    expect(await mailer.runOnce()).toBe(2);
    expect(await outboxRow(db(), refused)).toMatchObject({
      status: "failed",
      last_error: "Not sent: suppressed",
      sent_at: null,
    });
    expect(await outboxRow(db(), kept)).toMatchObject({ status: "sent" });
    expect(peer.received).toHaveLength(1);
  });

  it("gives a claimed batch back, without counting an attempt, when the send-time check fails", async () => {
    const { id } = await enqueueTestEmail(db(), "check-fails");
    const mailer = worker({
      refuseRecipients: async () => {
        throw new Error("database unavailable");
      },
    });
    await expect(mailer.runOnce()).rejects.toThrow("database unavailable");
    expect(await outboxRow(db(), id)).toMatchObject({ status: "pending", attempts: 0, lease_expires_at: null });
    expect(peer.received).toHaveLength(0);
  });

  it("retries while the SMTP server is down and delivers once it is back", async () => {
    const down = await startSmtpPeer();
    const port = down.port;
    await down.close();
    const { id } = await enqueueTestEmail(db(), "server-down");
    const mailer = worker({}, `smtp://127.0.0.1:${port}`);

    expect(await mailer.runOnce()).toBe(1);
    const row = await outboxRow(db(), id);
    expect(row).toMatchObject({ status: "pending", attempts: 1, sent_at: null });
    expect(row.last_error).toMatch(/ECONNREFUSED|connect/i);

    const back = await startSmtpPeer(port);
    try {
      await waitUntilDue(db(), id);
      expect(await mailer.runOnce()).toBe(1);
      expect(await outboxRow(db(), id)).toMatchObject({ status: "sent", attempts: 2 });
      expect(back.received).toHaveLength(1);
    } finally {
      await mailer.stop();
      await back.close();
    }
  });

  it("a 550 on RCPT calls onPermanentFailure and fails the row at once, without retry", async () => {
    refuse(550, "5.1.1 No such user here");
    const rejections: Array<{ email: OutboxRow; reply: string }> = [];
    const { id } = await enqueueTestEmail(db(), "hard-bounce", "nobody@example.test");
    const mailer = worker({ onPermanentFailure: (email, reply) => void rejections.push({ email, reply }) });

    expect(await mailer.runOnce()).toBe(1);
    const row = await outboxRow(db(), id);
    expect(row).toMatchObject({ status: "failed", attempts: 1, sent_at: null, lease_expires_at: null });
    expect(row.last_error).toContain("550 5.1.1 No such user here");
    expect(rejections).toHaveLength(1);
    expect(rejections[0]?.email).toMatchObject({ id, to_address: "nobody@example.test", kind: "test" });
    expect(rejections[0]?.reply).toBe("550 5.1.1 No such user here");

    await sleep(250);
    expect(await mailer.runOnce()).toBe(0);
    expect(rejections).toHaveLength(1);
    expect(peer.received).toHaveLength(0);
  });

  it("retries a permanent rejection whose onPermanentFailure threw, so the bounce is not lost", async () => {
    refuse(550, "5.1.1 No such user here");
    const calls: string[] = [];
    const { id } = await enqueueTestEmail(db(), "hook-fails");
    const mailer = worker({
      onPermanentFailure: (email) => {
        calls.push(email.id);
        if (calls.length === 1) throw new Error("database unavailable");
      },
    });

    expect(await mailer.runOnce()).toBe(1);
    expect(await outboxRow(db(), id)).toMatchObject({ status: "pending", attempts: 1 });
    await waitUntilDue(db(), id);
    expect(await mailer.runOnce()).toBe(1);
    expect(await outboxRow(db(), id)).toMatchObject({ status: "failed", attempts: 2 });
    expect(calls).toEqual([id, id]);
  });

  it("marks the row failed after maxAttempts; retryEmail puts it back in the queue", async () => {
    refuse(452, "4.2.2 Mailbox full");
    const { id } = await enqueueTestEmail(db(), "gives-up");
    const mailer = worker({ maxAttempts: 2, retryBaseMs: 50 });

    expect(await mailer.runOnce()).toBe(1);
    expect(await outboxRow(db(), id)).toMatchObject({ status: "pending", attempts: 1 });
    await waitUntilDue(db(), id);
    expect(await mailer.runOnce()).toBe(1);
    const failed = await outboxRow(db(), id);
    expect(failed).toMatchObject({ status: "failed", attempts: 2, sent_at: null });
    expect(failed.last_error).toContain("452 4.2.2 Mailbox full");
    await sleep(200);
    expect(await mailer.runOnce()).toBe(0);

    peer.rejectRecipient = () => undefined;
    expect(await retryEmail(db(), id)).toBe(true);
    expect(await outboxRow(db(), id)).toMatchObject({ status: "pending", attempts: 0, last_error: null });
    expect(await mailer.runOnce()).toBe(1);
    expect(await outboxRow(db(), id)).toMatchObject({ status: "sent", attempts: 1 });
    expect(peer.received).toHaveLength(1);
  });

  it("fails an email claimed more than maxAttempts times whose claims all ended without an outcome", async () => {
    const { id } = await enqueueTestEmail(db(), "kills-its-sender");
    // As after three workers died while sending it: claimed three times, its lease now over.
    await db()
      .updateTable("email_outbox")
      .set({ status: "sending", attempts: 3, lease_expires_at: new Date(Date.now() - 1_000).toISOString() })
      .where("id", "=", id)
      .execute();
    expect(await worker({ maxAttempts: 3 }).runOnce()).toBe(1);
    const row = await outboxRow(db(), id);
    expect(row).toMatchObject({ status: "failed", attempts: 4, sent_at: null });
    expect(row.last_error).toBe("Not sent: given up after 3 attempts that ended without an outcome");
    expect(peer.received).toHaveLength(0);
  });
});
