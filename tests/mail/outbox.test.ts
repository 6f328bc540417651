import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { InvalidEmailError } from "../../server/mail/email-input.ts";
import {
  claimDueEmails,
  clearSentBodies,
  countEmailsByStatus,
  enqueueEmail,
  enqueueEmails,
  finishClaims,
  listRecentEmails,
  type NewEmail,
  retryEmail,
  SENT_BODY_DAYS,
} from "../../server/mail/outbox.ts";
import { startMailWorker } from "../../server/mail/worker.ts";
import { type MigratedDatabase, migratedDatabase, TEST_DIALECTS } from "../helpers/databases.ts";
import { enqueueTestEmail, mailConfig, memoryLogger, outboxRow, sleep } from "./helpers.ts";

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const EMAIL = {
  idempotencyKey: "reset:verification-1",
  kind: "password-reset",
  to: "ada@example.test",
  subject: "Reset your password",
  html: "<p>Reset</p>",
  text: "Reset",
};

describe.each(TEST_DIALECTS)("the email outbox on %s", (dialect) => {
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
  });

  it("writes one pending row, due now, with the headers as an object", async () => {
    const headers = { "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
    const result = await enqueueEmail(db(), { ...EMAIL, headers });
    expect(result.created).toBe(true);
    expect(result.id).toMatch(/^email-\d+-[a-z0-9]{10}$/);
    const row = await outboxRow(db(), result.id);
    expect(row).toMatchObject({
      idempotency_key: EMAIL.idempotencyKey,
      kind: EMAIL.kind,
      to_address: EMAIL.to,
      subject: EMAIL.subject,
      html_body: EMAIL.html,
      text_body: EMAIL.text,
      headers,
      status: "pending",
      attempts: 0,
      lease_expires_at: null,
      last_error: null,
      message_id: null,
      sent_at: null,
    });
    expect(row.next_attempt_at).toMatch(ISO_TIMESTAMP);
    expect(Date.parse(row.next_attempt_at)).toBeLessThanOrEqual(Date.now());
    expect(row.created_at).toMatch(ISO_TIMESTAMP);
  });

  it("adds nothing for an idempotency key it already holds and returns the first row's id", async () => {
    const first = await enqueueEmail(db(), EMAIL);
    const second = await enqueueEmail(db(), { ...EMAIL, subject: "Another subject" });
    expect(second).toEqual({ id: first.id, created: false });
    const rows = await db().selectFrom("email_outbox").select(["id", "subject"]).execute();
    expect(rows).toEqual([{ id: first.id, subject: EMAIL.subject }]);
  });

  it("enqueues in the caller's transaction: a rolled-back change leaves no email", async () => {
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await enqueueEmail(trx, EMAIL);
          throw new Error("the change failed");
        }),
    ).rejects.toThrow("the change failed");
    expect(await db().selectFrom("email_outbox").select("id").execute()).toEqual([]);

    const committed = await db()
      .transaction()
      .execute((trx) => enqueueEmail(trx, EMAIL));
    expect(committed.created).toBe(true);
    expect(await db().selectFrom("email_outbox").select("id").execute()).toEqual([{ id: committed.id }]);
  });

  it("refuses a bad recipient, a multi-line subject and header injection", async () => {
    const bad: NewEmail[] = [
      { ...EMAIL, to: "not an address" },
      { ...EMAIL, subject: "Hello\r\nBcc: victim@example.test" },
      { ...EMAIL, subject: "   " },
      { ...EMAIL, headers: { "X-Note": "a\r\nBcc: victim@example.test" } },
      { ...EMAIL, headers: { "X-Bad Name": "value" } },
      { ...EMAIL, headers: { From: "Someone Else <x@example.test>" } },
      { ...EMAIL, headers: { bcc: "victim@example.test" } },
      { ...EMAIL, idempotencyKey: "" },
    ];
    for (const email of bad) await expect(enqueueEmail(db(), email)).rejects.toBeInstanceOf(InvalidEmailError);
    expect(await db().selectFrom("email_outbox").select("id").execute()).toEqual([]);
  });

  it("lists recent emails newest first without their bodies, by status, page by page", async () => {
    const ids: string[] = [];
    for (let index = 0; index < 5; index++) {
      ids.push((await enqueueTestEmail(db(), `log:${index}`)).id);
      await sleep(3); // distinct created_at
    }
    const claim = await claimDueEmails(db(), { now: new Date().toISOString(), leaseMs: 60_000, limit: 1 });
    const [claimed] = claim.rows;
    if (!claimed) throw new Error("nothing claimed");
    await finishClaims(db(), [{ row: claimed, outcome: { status: "failed", error: "550 No such user" } }]);

    const all = await listRecentEmails(db());
    expect(all.map((entry) => entry.id)).toEqual([...ids].reverse());
    expect(Object.keys(all[0] ?? {})).not.toContain("html_body");
    expect(Object.keys(all[0] ?? {})).not.toContain("text_body");

    const firstPage = await listRecentEmails(db(), { limit: 2 });
    const last = firstPage.at(-1);
    if (!last) throw new Error("empty page");
    const secondPage = await listRecentEmails(db(), { limit: 2, before: last });
    const thirdPage = await listRecentEmails(db(), { limit: 2, before: secondPage.at(-1) });
    expect([...firstPage, ...secondPage, ...thirdPage].map((entry) => entry.id)).toEqual([...ids].reverse());

    const failed = await listRecentEmails(db(), { status: "failed" });
    expect(failed).toEqual([
      expect.objectContaining({ id: claimed.id, status: "failed", attempts: 1, last_error: "550 No such user" }),
    ]);
  });

  it("pages through a batch written in one statement, all at one created_at, without losing any", async () => {
    const batch = Array.from({ length: 6 }, (_, index) => ({ ...EMAIL, idempotencyKey: `batch:${index}` }));
    expect(await enqueueEmails(db(), batch)).toBe(6);
    const seen: string[] = [];
    let before: { created_at: string; id: string } | undefined;
    for (let page = 0; page < 4; page++) {
      const entries = await listRecentEmails(db(), { limit: 2, before });
      seen.push(...entries.map((entry) => entry.id));
      before = entries.at(-1);
      if (!before) break;
    }
    const all = await db().selectFrom("email_outbox").select("id").orderBy("id", "desc").execute();
    expect(seen).toEqual(all.map((row) => row.id));
    expect(seen).toHaveLength(6);
  });

  it("counts emails per status, for all or for one batch", async () => {
    await enqueueTestEmail(db(), "notify:n1:s1", undefined, { batchId: "n1" });
    await enqueueTestEmail(db(), "notify:n1:s2", undefined, { batchId: "n1" });
    await enqueueTestEmail(db(), "notify:n10:s1", undefined, { batchId: "n10" });
    await enqueueTestEmail(db(), "confirm:s3");
    expect(await countEmailsByStatus(db())).toEqual({ pending: 4, sending: 0, sent: 0, failed: 0, unsent: 0 });
    expect(await countEmailsByStatus(db(), "n1")).toEqual({
      pending: 2,
      sending: 0,
      sent: 0,
      failed: 0,
      unsent: 0,
    });
  });

  it("retries only failed or unsent rows", async () => {
    const { id } = await enqueueEmail(db(), EMAIL);
    expect(await retryEmail(db(), id)).toBe(false);
    expect(await retryEmail(db(), "email-missing")).toBe(false);
    const [claimed] = (await claimDueEmails(db(), { now: new Date().toISOString(), leaseMs: 60_000, limit: 5 })).rows;
    if (!claimed) throw new Error("nothing claimed");
    expect(await retryEmail(db(), id)).toBe(false); // being sent
    await finishClaims(db(), [{ row: claimed, outcome: { status: "failed", error: "452 Mailbox full" } }]);
    expect(await retryEmail(db(), id)).toBe(true);
    expect(await outboxRow(db(), id)).toMatchObject({ status: "pending", attempts: 0, last_error: null });
  });

  /** One email of each kind the clearing tells apart, each `daysAgo` old (sent then, or written then). */
  async function emailsOfEveryState(daysAgo: number): Promise<Record<string, string>> {
    const at = new Date(Date.now() - daysAgo * 86_400_000).toISOString();
    const ids: Record<string, string> = {};
    for (const status of ["sent", "failed", "unsent", "pending"] as const) {
      const { id } = await enqueueTestEmail(db(), `${status}:${daysAgo}`);
      await db()
        .updateTable("email_outbox")
        .set({ status, created_at: at, sent_at: status === "sent" ? at : null })
        .where("id", "=", id)
        .execute();
      ids[status] = id;
    }
    return ids;
  }

  it("empties the old bodies batch after batch, until none is left", async () => {
    const old: string[] = [];
    for (let index = 0; index < 5; index++) {
      old.push((await emailsOfEveryState(SENT_BODY_DAYS + 2 + index / 10)).sent as string);
    }
    const cutoff = new Date(Date.now() - SENT_BODY_DAYS * 86_400_000);
    // Each statement empties at most a batch: none holds the connection for long.
    let updates = 0;
    const counted = db().withPlugin({
      transformQuery: ({ node }) => {
        if (node.kind === "UpdateQueryNode") updates += 1;
        return node;
      },
      transformResult: async ({ result }) => result,
    });
    expect(await clearSentBodies(counted, cutoff, 2)).toBe(5);
    expect(updates).toBe(3);
    for (const id of old) expect((await outboxRow(db(), id)).html_body).toBe("");
  });

  it(`empties the bodies of emails sent more than ${SENT_BODY_DAYS} days ago, and only theirs`, async () => {
    const old = await emailsOfEveryState(SENT_BODY_DAYS + 1);
    const recent = await emailsOfEveryState(SENT_BODY_DAYS - 1);
    const before = await outboxRow(db(), old.sent as string);
    expect(before.html_body).not.toBe("");

    const cutoff = new Date(Date.now() - SENT_BODY_DAYS * 86_400_000);
    expect(await clearSentBodies(db(), cutoff)).toBe(1);
    expect(await clearSentBodies(db(), cutoff)).toBe(0);

    // The row stays, for the email log and the notification's progress.
    expect(await outboxRow(db(), old.sent as string)).toEqual({ ...before, html_body: "", text_body: "" });
    for (const id of [old.failed, old.unsent, old.pending, ...Object.values(recent)]) {
      const row = await outboxRow(db(), id as string);
      expect(row.html_body, row.idempotency_key).not.toBe("");
      expect(row.text_body, row.idempotency_key).not.toBe("");
    }
  });

  it("has the mail worker empty them when it runs, and say so in its log", async () => {
    const old = await emailsOfEveryState(SENT_BODY_DAYS + 1);
    const { logger, lines } = memoryLogger();
    const worker = startMailWorker({ db: db(), config: mailConfig(), logger, autoRun: false });
    try {
      await worker.runOnce();
    } finally {
      await worker.stop();
    }
    expect(await outboxRow(db(), old.sent as string)).toMatchObject({ status: "sent", html_body: "", text_body: "" });
    expect((await outboxRow(db(), old.unsent as string)).html_body).not.toBe("");
    expect(lines().find((line) => line.cleared !== undefined)).toMatchObject({
      cleared: 1,
      msg: `Emptied the bodies of 1 emails sent more than ${SENT_BODY_DAYS} days ago`,
    });
  });
});
