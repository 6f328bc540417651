import { EventEmitter } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pino from "pino";
import { SMTPServer } from "smtp-server";
import { describe, expect, it, type TestContext } from "vitest";
import { openDatabase } from "../../server/db/connection.ts";
import { prepareDatabase } from "../../server/db/setup.ts";
import { createTestDatabase, TEST_DIALECTS, type TestDatabase, type TestDialect } from "../helpers/databases.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";

/**
 * Fault tests of a newsletter notification sent by the real server process to a real
 * SMTP peer, on a fresh database of each kind:
 * - the server is killed with SIGKILL at random moments of the send and restarted on
 *   the same database, several times;
 * - the SMTP peer goes down in the middle of the send and comes back.
 * Either way every active subscriber gets the notification exactly once, and no
 * suppressed or unsubscribed address gets anything.
 *
 * "Exactly once" counts distinct Message-IDs per recipient. A row sent when the process
 * died, before it recorded the send, is sent again after the restart with the same
 * Message-ID (transport.ts: `<row id@host>`), so receivers recognise the duplicate; the
 * outbox cannot do better than at-least-once over SMTP. Two different Message-IDs for
 * one address would be two outbox rows: a real double send, which fails the test.
 *
 * The server runs with short intervals (WORKER_INTERVALS: a 3-second lease, retries
 * after about a second, polls five times a second), so that a dead process's emails
 * are taken over, and those that failed during the outage retried, within seconds,
 * by the code paths and timers that do it in production.
 *
 * Waits follow events (a message reaching the peer, a line of the server's log); only
 * the outbox's rows, which announce nothing, are polled. The time limits are generous
 * and explicit: the file may share two cores with a browser test file, which slows
 * every restart and send severalfold.
 */

const SUBSCRIBERS = 2_000;
const OUTAGE_SUBSCRIBERS = 300;
const KILLS = 3;
const AUTH_SECRET = "newsletter-fault-test-secret-0123456789";
const WORKER_INTERVALS = {
  MAIL_LEASE_SECONDS: "3",
  MAIL_RETRY_BASE_SECONDS: "1",
  MAIL_POLL_SECONDS: "0.2",
  NEWSLETTER_POLL_SECONDS: "0.2",
};
/** Time limits of the waits (and the seeding's share of the tests' timeouts), in ms. */
const LIMITS = {
  /** Seeding a database with thousands of subscribers (PostgreSQL is the slower). */
  seed: 30_000,
  /** A (re)started server reaching the next kill threshold. */
  nextThreshold: 45_000,
  /** Every subscriber's message arriving, after the last restart or the outage. */
  delivery: 60_000,
  /** The outbox recording every row as sent (duplicates of a killed server's rows included). */
  outboxSent: 30_000,
  /** The worker noticing the outage, then retrying during it. */
  outage: 20_000,
};
/**
 * The whole test: four server starts (30 s each at most, tests/helpers/server.ts),
 * the waits above and a graceful stop (20 s at most), so that a slow step fails with
 * its own message rather than the test's timeout.
 */
const SIGKILL_TEST_TIMEOUT_MS =
  LIMITS.seed + 4 * 30_000 + KILLS * LIMITS.nextThreshold + LIMITS.delivery + LIMITS.outboxSent + 20_000;
const OUTAGE_TEST_TIMEOUT_MS =
  LIMITS.seed + 30_000 + LIMITS.nextThreshold + 2 * LIMITS.outage + LIMITS.delivery + LIMITS.outboxSent + 20_000;
const silent = pino({ level: "silent" });
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

type Cleanups = (() => Promise<unknown>)[];

/**
 * What a test started, stopped in reverse order when it ends, whatever happened. The
 * tests run concurrently: the hook must be the test context's own.
 */
function useCleanups(onTestFinished: TestContext["onTestFinished"]): Cleanups {
  const cleanups: Cleanups = [];
  onTestFinished(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
  });
  return cleanups;
}

const activeAddress = (index: number) => `reader${String(index).padStart(5, "0")}@example.test`;
/** Excluded for one reason each: suppressed while active, unsubscribed, bounced, pending. */
const EXCLUDED = [
  { email: "suppressed1@example.test", status: "active" as const, suppressed: true },
  { email: "suppressed2@example.test", status: "active" as const, suppressed: true },
  { email: "complained@example.test", status: "active" as const, suppressed: true },
  { email: "left1@example.test", status: "unsubscribed" as const, suppressed: false },
  { email: "left2@example.test", status: "unsubscribed" as const, suppressed: false },
  { email: "bounced@example.test", status: "bounced" as const, suppressed: true },
  { email: "unconfirmed@example.test", status: "pending" as const, suppressed: false },
];

/** A fresh database with `count` active subscribers, the excluded ones and one due notification. */
async function seedDatabase(cleanups: Cleanups, dialect: TestDialect, count: number): Promise<TestDatabase> {
  const database = await createTestDatabase(dialect);
  const handle = await prepareDatabase(database.config, silent);
  try {
    const db = handle.db;
    await db
      .insertInto("newsletter_settings")
      .values({ setting_key: "auto_send_enabled", setting_value: "true" })
      .onConflict((conflict) => conflict.column("setting_key").doUpdateSet({ setting_value: "true" }))
      .execute();
    const rows = Array.from({ length: count }, (_, index) => ({
      id: `sub-${String(index).padStart(5, "0")}`,
      email: activeAddress(index),
      status: "active" as const,
      confirmed_at: daysAgo(2),
    }));
    for (let start = 0; start < rows.length; start += 500) {
      await db
        .insertInto("newsletter_subscribers")
        .values(rows.slice(start, start + 500))
        .execute();
    }
    await db
      .insertInto("newsletter_subscribers")
      .values(
        EXCLUDED.map((excluded, index) => ({
          id: `sub-excluded-${index}`,
          email: excluded.email,
          status: excluded.status,
          confirmed_at: excluded.status === "pending" ? null : daysAgo(2),
        })),
      )
      .execute();
    await db
      .insertInto("newsletter_suppressions")
      .values(
        EXCLUDED.filter((excluded) => excluded.suppressed).map((excluded, index) => ({
          id: `supp-${index}`,
          email: excluded.email,
          reason: "test",
        })),
      )
      .execute();
    // The notified tip exists: the fan-out cancels a notification whose item went away.
    await db
      .insertInto("tips_resources")
      .values({
        id: "tip-fault",
        category: "Security Tips",
        title: "Rotate your keys",
        description: "",
        url: null,
        type: "external",
        order_index: 0,
      })
      .execute();
    await db
      .insertInto("notifications")
      .values({
        id: "notification-fault",
        item_type: "tip",
        item_id: "tip-fault",
        title: "Rotate your keys",
        summary: "A due notification",
        url: "/tips/rotate-your-keys",
        image_url: null,
        status: "pending",
        created_at: daysAgo(1),
        scheduled_for: daysAgo(1),
      })
      .execute();
  } finally {
    await handle.close();
  }
  cleanups.push(() => database.drop());
  return database;
}

/**
 * A minimal SMTP peer (tests/mail/smtp-peer.ts parses every message, too slow for
 * thousands): it keeps the envelope recipients and the Message-ID header of each
 * message it accepted, and ignores connections reset by a killed client.
 */
interface ReceivedMessage {
  to: string[];
  messageId: string;
}
interface SmtpPeer {
  port: number;
  url: string;
  received: ReceivedMessage[];
  /** The distinct envelope recipients of `received`. */
  recipients: Set<string>;
  /** Emits "message" once each accepted message is in `received`. */
  events: EventEmitter;
  /** Delay before the reply to the message data, to slow the send down. */
  dataDelayMs: number;
  close(): Promise<void>;
}

async function startSmtpPeer(port = 0): Promise<SmtpPeer> {
  const received: ReceivedMessage[] = [];
  const recipients = new Set<string>();
  const events = new EventEmitter();
  const options = { dataDelayMs: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    closeTimeout: 200,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const head = Buffer.concat(chunks).toString("utf8").split("\r\n\r\n", 1)[0] ?? "";
        const messageId = /^message-id:\s*(<[^>]+>)/im.exec(head)?.[1] ?? `(none ${received.length})`;
        setTimeout(() => {
          const to = session.envelope.rcptTo.map((rcpt) => rcpt.address);
          received.push({ to, messageId });
          for (const address of to) recipients.add(address);
          events.emit("message");
          callback();
        }, options.dataDelayMs);
      });
    },
  });
  // A client killed mid-conversation resets its connection: expected here.
  server.on("error", () => {});
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const actualPort = (server.server.address() as AddressInfo).port;
  let closed: Promise<void> | undefined;
  return {
    port: actualPort,
    url: `smtp://127.0.0.1:${actualPort}`,
    received,
    recipients,
    events,
    get dataDelayMs() {
      return options.dataDelayMs;
    },
    set dataDelayMs(value: number) {
      options.dataDelayMs = value;
    },
    close: () => {
      closed ??= new Promise<void>((resolve) => server.close(() => resolve()));
      return closed;
    },
  };
}

/** Runs work on the database from the test process (the server may be running: SQLite waits for its lock). */
async function withDb<T>(database: TestDatabase, work: (db: ReturnType<typeof openDatabase>["db"]) => Promise<T>) {
  const handle = openDatabase(database.config);
  try {
    return await work(handle.db);
  } finally {
    await handle.close();
  }
}

async function startBastion(
  cleanups: Cleanups,
  database: TestDatabase,
  dataDir: string,
  peer: SmtpPeer,
): Promise<RunningServer> {
  const server = await startServer({
    databaseUrl: database.url,
    dataDir,
    env: { SMTP_URL: peer.url, AUTH_SECRET, ...WORKER_INTERVALS },
  });
  cleanups.push(() => server.stop());
  return server;
}

/** SIGKILL: no shutdown hook runs, in-flight sends and leases are left as they are. */
async function killHard(server: RunningServer): Promise<void> {
  const listening = await server.waitForLog(
    (line) => typeof line.pid === "number" && line.msg?.startsWith("Listening") === true,
  );
  process.kill(listening.pid as number, "SIGKILL");
  await server.exited;
}

/** Resolves once condition() holds, checked again at each message the peers receive. */
async function waitForMessages(
  peers: SmtpPeer[],
  condition: () => boolean,
  timeoutMs: number,
  what: string,
): Promise<void> {
  if (condition()) return;
  await new Promise<void>((resolve, reject) => {
    const finish = () => {
      clearTimeout(timer);
      for (const peer of peers) peer.events.off("message", check);
    };
    const check = () => {
      if (!condition()) return;
      finish();
      resolve();
    };
    const timer = setTimeout(() => {
      finish();
      reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`));
    }, timeoutMs);
    for (const peer of peers) peer.events.on("message", check);
  });
}

/** The rows of the outbox that are not sent yet, by status. */
async function unsentRows(database: TestDatabase): Promise<{ status: string; n: number }[]> {
  const rows = await withDb(database, (db) =>
    db
      .selectFrom("email_outbox")
      .select((eb) => ["status", eb.fn.countAll<number>().as("n")])
      .where("status", "!=", "sent")
      .groupBy("status")
      .execute(),
  );
  return rows.map((row) => ({ status: row.status, n: Number(row.n) }));
}

/**
 * Resolves once every outbox row is sent: a row the killed server sent but did not record
 * is sent again (same Message-ID) when its lease expires, after every subscriber already
 * has a message. The outbox announces nothing, so it is polled.
 */
async function waitForOutboxSent(database: TestDatabase): Promise<void> {
  const deadline = Date.now() + LIMITS.outboxSent;
  for (let unsent = await unsentRows(database); unsent.length > 0; unsent = await unsentRows(database)) {
    if (Date.now() > deadline) {
      throw new Error(`Outbox rows still not sent after ${LIMITS.outboxSent} ms: ${JSON.stringify(unsent)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Distinct Message-IDs per envelope recipient. */
function messageIdsByRecipient(messages: ReceivedMessage[]): Map<string, Set<string>> {
  const byRecipient = new Map<string, Set<string>>();
  for (const message of messages) {
    for (const to of message.to) {
      const ids = byRecipient.get(to) ?? new Set<string>();
      ids.add(message.messageId);
      byRecipient.set(to, ids);
    }
  }
  return byRecipient;
}

function expectExactlyOnce(messages: ReceivedMessage[], count: number): void {
  const byRecipient = messageIdsByRecipient(messages);
  const expected = Array.from({ length: count }, (_, index) => activeAddress(index));
  const missing = expected.filter((address) => !byRecipient.has(address));
  expect(missing.slice(0, 10), `${missing.length} active subscriber(s) got nothing`).toEqual([]);
  const twice = [...byRecipient].filter(([, ids]) => ids.size > 1).map(([address]) => address);
  expect(twice.slice(0, 10), `${twice.length} address(es) got two different messages`).toEqual([]);
  const excluded = new Set(EXCLUDED.map((excluded) => excluded.email));
  expect([...byRecipient.keys()].filter((address) => excluded.has(address))).toEqual([]);
  expect(byRecipient.size).toBe(count);
}

async function expectOutboxAllSent(database: TestDatabase, count: number): Promise<void> {
  const rows = await withDb(database, (db) =>
    db.selectFrom("email_outbox").select(["to_address", "status", "last_error"]).execute(),
  );
  expect(rows.length).toBe(count);
  expect(rows.filter((row) => row.status !== "sent").slice(0, 5)).toEqual([]);
}

// Concurrent: most of each test is waiting (for restarts, for leases and retries to come due).
describe.concurrent.each(TEST_DIALECTS)(
  "newsletter notification under faults (real server, real SMTP peer, %s)",
  (dialect) => {
    it(`SIGKILL at ${KILLS} random moments of a send to ${SUBSCRIBERS} subscribers: each gets it exactly once`, {
      timeout: SIGKILL_TEST_TIMEOUT_MS,
    }, async ({ onTestFinished }) => {
      const cleanups = useCleanups(onTestFinished);
      const database = await seedDatabase(cleanups, dialect, SUBSCRIBERS);
      const dataDir = mkdtempSync(path.join(tmpdir(), "bastion-fault-"));
      cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      const peer = await startSmtpPeer();
      cleanups.push(() => peer.close());

      // Random points of the send, in increasing order, between 5 % and 85 % of it.
      const thresholds = Array.from({ length: KILLS }, () =>
        Math.floor(SUBSCRIBERS * (0.05 + Math.random() * 0.8)),
      ).sort((a, b) => a - b);
      const killedAt: number[] = [];
      let server = await startBastion(cleanups, database, dataDir, peer);
      for (const threshold of thresholds) {
        await waitForMessages(
          [peer],
          () => peer.received.length >= threshold,
          LIMITS.nextThreshold,
          `${threshold} messages`,
        );
        await killHard(server);
        killedAt.push(peer.received.length);
        // The next process takes the dead one's emails over once their leases expire.
        server = await startBastion(cleanups, database, dataDir, peer);
      }
      try {
        await waitForMessages([peer], () => peer.recipients.size >= SUBSCRIBERS, LIMITS.delivery, "every message");
      } catch (error) {
        const statuses = await withDb(database, (db) =>
          db
            .selectFrom("email_outbox")
            .select((eb) => ["status", "lease_expires_at", "next_attempt_at", eb.fn.countAll<number>().as("n")])
            .groupBy(["status", "lease_expires_at", "next_attempt_at"])
            .execute(),
        );
        throw new Error(
          `${(error as Error).message}: killed at ${killedAt.join(", ")}; received ${peer.received.length}; now ${new Date().toISOString()}; outbox ${JSON.stringify(statuses.slice(0, 20))}; logs ${JSON.stringify(
            server
              .logs()
              .filter((line) => (line.level ?? 0) >= 40)
              .slice(-5),
          )}`,
        );
      }
      // Every late duplicate is sent once its row is: nothing can arrive after this.
      await waitForOutboxSent(database);
      expect(await server.stop()).toBe(0);

      expect(killedAt.length).toBe(KILLS);
      expectExactlyOnce(peer.received, SUBSCRIBERS);
      await expectOutboxAllSent(database, SUBSCRIBERS);
    });

    it(`the SMTP peer down in the middle of a send to ${OUTAGE_SUBSCRIBERS} subscribers, then back: all delivered once`, {
      timeout: OUTAGE_TEST_TIMEOUT_MS,
    }, async ({ onTestFinished }) => {
      const cleanups = useCleanups(onTestFinished);
      const database = await seedDatabase(cleanups, dialect, OUTAGE_SUBSCRIBERS);
      const dataDir = mkdtempSync(path.join(tmpdir(), "bastion-fault-"));
      cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      const first = await startSmtpPeer();
      const port = first.port;
      first.dataDelayMs = 20;
      let second: SmtpPeer | undefined;
      cleanups.push(async () => {
        await first.close();
        await second?.close();
      });

      const server = await startBastion(cleanups, database, dataDir, first);
      await waitForMessages(
        [first],
        () => first.received.length >= OUTAGE_SUBSCRIBERS / 3,
        LIMITS.nextThreshold,
        "the first messages",
      );
      await first.close();
      // Down: every send fails, and the rows wait for a retry; the peer stays down
      // until a retry has failed too.
      const retryFailed = (attempt: number) => (line: { msg?: string; attempt?: unknown }) =>
        line.msg === "Email not sent; will retry" && typeof line.attempt === "number" && line.attempt >= attempt;
      await server.waitForLog(retryFailed(1), LIMITS.outage);
      await server.waitForLog(retryFailed(2), LIMITS.outage);

      second = await startSmtpPeer(port);
      const peerBack = second;
      // The worker's polls send them again as their backoff passes.
      const all = () => [...first.received, ...peerBack.received];
      await waitForMessages(
        [first, peerBack],
        () => new Set([...first.recipients, ...peerBack.recipients]).size >= OUTAGE_SUBSCRIBERS,
        LIMITS.delivery,
        "every subscriber's message",
      );
      await waitForOutboxSent(database);
      expect(await server.stop()).toBe(0);

      expectExactlyOnce(all(), OUTAGE_SUBSCRIBERS);
      await expectOutboxAllSent(database, OUTAGE_SUBSCRIBERS);
      const failed = await withDb(database, (db) =>
        db.selectFrom("email_outbox").select("id").where("status", "=", "failed").execute(),
      );
      expect(failed).toEqual([]);
    });
  },
);
