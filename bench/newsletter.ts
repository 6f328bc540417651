import type { AddressInfo } from "node:net";
import nodemailer from "nodemailer";
import pino from "pino";
import { SMTPServer } from "smtp-server";
import { deriveActivePeriods } from "../server/db/migrations/0008-newsletter-active-periods.ts";
import { prepareDatabase } from "../server/db/setup.ts";
import { listRecentEmails } from "../server/mail/outbox.ts";
import { fromAddress } from "../server/mail/transport.ts";
import { startMailWorker } from "../server/mail/worker.ts";
import { notificationProgress, startNotificationScheduler } from "../server/newsletter/notifications.ts";
import { refuseSuppressed } from "../server/newsletter/suppression.ts";
import { SITE_NAME } from "../server/site.ts";
import { signIn } from "../tests/helpers/accounts.ts";
import { createTestDatabase } from "../tests/helpers/databases.ts";
import { startServer } from "../tests/helpers/server.ts";
import { buildIfMissing } from "./bench-server.ts";

/**
 * `npm run bench:newsletter`: one notification to 10,000 active subscribers on a fresh
 * SQLite database, fanned out by the notification scheduler and sent by the real mail
 * worker (in this process) to a local SMTP peer (also in this process). In the same
 * round, the baseline: nodemailer alone sending the same messages over the same kind
 * of pool (5 connections, one send in flight on each, as the worker). Throughout, the database reads
 * of the admin's newsletter page (notification progress, the email log) run every
 * 20 ms, for the worker and the baseline alike; their latency during the send is what
 * the admin would wait in this process, event-loop delay included (no production
 * server is started for these rounds). Prints each round, then the medians over the
 * rounds (BENCH_ROUNDS, default 3) and the median ratio (target ≥ 0.8).
 *
 * Last, the production server (built first if needed) sends the same notification
 * from its own process while an admin loads /admin/newsletter every 100 ms: the p99
 * of that page during the send is printed.
 */

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** As the mail worker: one send in flight per pooled connection. */
const IN_FLIGHT = 5;
const ADMIN_POLL_MS = 20;
const NOTIFICATION_ID = "notification-bench";
const ADMIN_PAGE_POLL_MS = 100;
const ADMIN_EMAIL = "bench.admin@example.test";
const ADMIN_PASSWORD = "bench admin password 1234";
const ORIGIN = "https://bastion.bench";
const silent = pino({ level: "silent" });

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

async function startCountingPeer() {
  const state = { count: 0, firstAt: 0, lastAt: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    closeTimeout: 200,
    onData(stream, _session, callback) {
      stream.on("data", () => {});
      stream.on("end", () => {
        state.count += 1;
        state.lastAt = performance.now();
        if (state.count === 1) state.firstAt = state.lastAt;
        callback();
      });
    },
  });
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    state,
    reset: () => Object.assign(state, { count: 0, firstAt: 0, lastAt: 0 }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("bench:newsletter timed out");
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

buildIfMissing();

const database = await createTestDatabase("sqlite");
const handle = await prepareDatabase(database.config, silent);
const db = handle.db;
const peer = await startCountingPeer();

try {
  // ---- The data set
  const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
  await db
    .insertInto("newsletter_settings")
    .values({ setting_key: "auto_send_enabled", setting_value: "true" })
    .onConflict((conflict) => conflict.column("setting_key").doUpdateSet({ setting_value: "true" }))
    .execute();
  for (let start = 0; start < SUBSCRIBERS; start += 1_000) {
    const rows = [];
    for (let index = start; index < Math.min(SUBSCRIBERS, start + 1_000); index++) {
      const id = String(index).padStart(6, "0");
      rows.push({
        id: `sub-${id}`,
        email: `reader${id}@example.test`,
        status: "active" as const,
        confirmed_at: daysAgo(2),
      });
    }
    await db.insertInto("newsletter_subscribers").values(rows).execute();
  }
  // Their active periods, which the admin page's chart reads, as migrations derive them.
  await deriveActivePeriods(db);
  // The announced chapter is published: the fan-out cancels a notification whose item went away.
  await db
    .insertInto("chapters")
    .values({
      id: "chapter-bench",
      slug: "threat-modelling",
      title: "Threat modelling a home lab",
      number: 1,
      order_index: 0,
      published: true,
      published_at: daysAgo(1),
    })
    .execute();
  await db
    .insertInto("notifications")
    .values({
      id: NOTIFICATION_ID,
      item_type: "chapter",
      item_id: "chapter-bench",
      title: "Threat modelling a home lab",
      summary: "Assets, adversaries and the three controls that matter most.",
      url: "/projects/threat-modelling",
      image_url: null,
      status: "pending",
      created_at: daysAgo(1),
      scheduled_for: daysAgo(1),
    })
    .execute();

  console.log(
    `bench:newsletter — ${SUBSCRIBERS} subscribers, one notification, SQLite on disk, local SMTP peer in process, ${ROUNDS} rounds`,
  );

  const config = { mail: { smtpUrl: peer.url, from: "Bastion <no-reply@bastion.bench>" }, publicOrigin: ORIGIN };

  // The admin's newsletter page reads (notification progress, the email log), every
  // ADMIN_POLL_MS during both the worker and the baseline: the same load on both.
  let adminLatencies: number[] = [];
  let benchDone = false;
  const admin = (async () => {
    while (!benchDone) {
      const begin = performance.now();
      await notificationProgress(db, NOTIFICATION_ID);
      await listRecentEmails(db, { limit: 50 });
      adminLatencies.push(performance.now() - begin);
      await new Promise((resolve) => setTimeout(resolve, ADMIN_POLL_MS));
    }
  })();

  const rounds: { fanOut: number; worker: number; baseline: number; adminMedian: number; adminP99: number }[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    await db.deleteFrom("email_outbox").execute();
    await db.updateTable("notifications").set({ status: "pending", sent_at: null }).execute();
    peer.reset();

    // ---- The worker: fan-out, then the outbox sent by the mail worker
    const worker = startMailWorker({
      db,
      config,
      logger: silent,
      refuseRecipients: (emails) => refuseSuppressed(db, emails),
    });
    const scheduler = startNotificationScheduler({
      db,
      config,
      secret: "bench-secret",
      logger: silent,
      autoRun: false,
      onEmailsQueued: () => worker.wake(),
    });
    const started = performance.now();
    await scheduler.runOnce();
    const fannedOut = performance.now();
    adminLatencies = [];
    await waitFor(() => peer.state.count >= SUBSCRIBERS, 600_000);
    const workerEnd = peer.state.lastAt;
    const adminDuringSend = [...adminLatencies].sort((a, b) => a - b);
    await scheduler.stop();
    await worker.stop();
    const progress = await notificationProgress(db, NOTIFICATION_ID);
    if (progress.sent !== SUBSCRIBERS) throw new Error(`round ${round}: ${JSON.stringify(progress)}`);

    // ---- Baseline: nodemailer alone, the same messages, the same kind of pool, as many in flight
    const rows = await db
      .selectFrom("email_outbox")
      .select(["id", "to_address", "subject", "text_body", "html_body", "headers"])
      .execute();
    peer.reset();
    const transporter = nodemailer.createTransport({ url: peer.url, pool: true, maxConnections: IN_FLIGHT });
    const from = fromAddress(config.mail.from, SITE_NAME);
    const baselineStarted = performance.now();
    let next = 0;
    const sender = async () => {
      while (next < rows.length) {
        const row = rows[next++] as (typeof rows)[number];
        await transporter.sendMail({
          from,
          to: row.to_address,
          subject: row.subject,
          text: row.text_body,
          html: row.html_body,
          headers: row.headers,
          messageId: `<${row.id}@bastion.bench>`,
        });
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, sender));
    const baselineSeconds = (peer.state.lastAt - baselineStarted) / 1000;
    transporter.close();

    const result = {
      fanOut: (fannedOut - started) / 1000,
      worker: SUBSCRIBERS / ((workerEnd - fannedOut) / 1000),
      baseline: SUBSCRIBERS / baselineSeconds,
      adminMedian: percentile(adminDuringSend, 0.5),
      adminP99: percentile(adminDuringSend, 0.99),
    };
    rounds.push(result);
    console.log(
      `round ${round}: fan-out ${result.fanOut.toFixed(2)} s; worker ${result.worker.toFixed(0)} msg/s; nodemailer alone ${result.baseline.toFixed(0)} msg/s; ratio ${(result.worker / result.baseline).toFixed(2)}; admin reads median ${result.adminMedian.toFixed(1)} ms, p99 ${result.adminP99.toFixed(1)} ms`,
    );
  }
  benchDone = true;
  await admin;

  const median = (values: number[]) =>
    percentile(
      [...values].sort((a, b) => a - b),
      0.5,
    );
  const ratios = rounds.map((round) => round.worker / round.baseline);
  console.log(
    `fan-out (render + enqueue ${SUBSCRIBERS} rows): median ${median(rounds.map((r) => r.fanOut)).toFixed(2)} s`,
  );
  console.log(`worker (send after fan-out): median ${median(rounds.map((r) => r.worker)).toFixed(0)} msg/s`);
  console.log(`nodemailer alone (baseline): median ${median(rounds.map((r) => r.baseline)).toFixed(0)} msg/s`);
  console.log(`ratio worker / baseline: median ${median(ratios).toFixed(2)} (target ≥ 0.8)`);
  console.log(
    `admin page reads during the send (every ${ADMIN_POLL_MS} ms): median ${median(rounds.map((r) => r.adminMedian)).toFixed(1)} ms, p99 ${median(rounds.map((r) => r.adminP99)).toFixed(1)} ms`,
  );

  // ---- The admin page itself, over HTTP, while the production server sends the same notification
  await db.deleteFrom("email_outbox").execute();
  await db.updateTable("notifications").set({ status: "pending", sent_at: null }).execute();
  peer.reset();
  const server = await startServer({
    databaseUrl: database.url,
    env: {
      SMTP_URL: peer.url,
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      NEWSLETTER_POLL_SECONDS: "0.2",
    },
  });
  try {
    const cookie = await signIn(server.url, ADMIN_EMAIL, ADMIN_PASSWORD);
    const loadAdminPage = async (): Promise<number> => {
      const begin = performance.now();
      const response = await fetch(`${server.url}/admin/newsletter`, { headers: { Cookie: cookie } });
      await response.text();
      if (response.status !== 200) throw new Error(`/admin/newsletter answered ${response.status}`);
      return performance.now() - begin;
    };
    const pause = () => new Promise((resolve) => setTimeout(resolve, ADMIN_PAGE_POLL_MS));
    const duringSend: number[] = [];
    while (peer.state.count < SUBSCRIBERS) {
      const latency = await loadAdminPage();
      // Only the requests made while the emails are going out count.
      if (peer.state.count > 0 && peer.state.count < SUBSCRIBERS) duringSend.push(latency);
      await pause();
    }
    // The same page once the send is over: the baseline of the figure above.
    const afterSend: number[] = [];
    for (let index = 0; index < 30; index++) {
      afterSend.push(await loadAdminPage());
      await pause();
    }
    duringSend.sort((a, b) => a - b);
    afterSend.sort((a, b) => a - b);
    const serverRate = SUBSCRIBERS / ((peer.state.lastAt - peer.state.firstAt) / 1000);
    console.log(
      `production server sending it (its own process, fan-out by its scheduler): ${serverRate.toFixed(0)} msg/s`,
    );
    console.log(
      `GET /admin/newsletter as an admin, every ${ADMIN_PAGE_POLL_MS} ms: during the send (${duringSend.length} requests) median ${percentile(duringSend, 0.5).toFixed(1)} ms, p99 ${percentile(duringSend, 0.99).toFixed(1)} ms; after it (${afterSend.length}) median ${percentile(afterSend, 0.5).toFixed(1)} ms, p99 ${percentile(afterSend, 0.99).toFixed(1)} ms`,
    );
  } finally {
    await server.stop();
  }
} finally {
  await peer.close();
  await handle.close();
  await database.drop();
}
