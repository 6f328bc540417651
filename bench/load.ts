import { rmSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { notificationProgress, scheduleNotification } from "../server/newsletter/notifications.ts";
import { signIn } from "../tests/helpers/accounts.ts";
import { deliveryCheck, startCountingPeer } from "../tests/helpers/smtp-counter.ts";
import { buildIfMissing, startQuietServer } from "./bench-server.ts";
import {
  BROWSER_HEADERS,
  INSTALL_HINT,
  type LoadResult,
  loadGenerator,
  median,
  processCpuSeconds,
} from "./load-generator.ts";
import { percentile, printPageTable, targetChecks } from "./load-report.ts";
import {
  type BackupRun,
  backupLoop,
  prepareSite,
  probe,
  sampleMemory,
  startEditor,
  subscriberEmail,
} from "./load-site.ts";
import { EDITOR } from "./web-data.ts";

/**
 * `npm run bench:load`: the production server under a realistic mixed load, three times
 * on a fresh SQLite site each:
 * 1. 200 anonymous visitors (wrk, 40 connections on each of five public pages) for
 *    BENCH_DURATION seconds (default 60), while the signed-in editor saves a tip every
 *    second over HTTP (each save invalidates every cached page) and a notification is
 *    sent to BENCH_SUBSCRIBERS (default 10,000) subscribers through a real SMTP peer
 *    in this process, which counts the messages per recipient;
 * 2. the same, with the SMTP peer gone for the middle third of the run (20 s of 60):
 *    the notification is queued to fan out just before, the peer comes back on the same
 *    port, and once the outbox is drained every subscriber must have exactly one email;
 * 3. the same, with `npm run cli -- backup` run in a loop over the middle third: the
 *    visitors' requests must keep succeeding while SQLite's file is being copied.
 * Each prints requests/s, p50/p99 per page, errors, the editor's saves, the emails and
 * the server's peak RSS, with targets and PASS/MISS beside them, and a /healthz probe
 * that tells in which third of the run the server stopped answering, if it did. It exits non-zero only
 * when the bench itself broke. Needs wrk (`apt-get install -y wrk`); without it,
 * autocannon runs in this process and competes with what it measures.
 */

const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 60);
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 10_000);
const VISITORS = 200;
const RSS_TARGET_MB = 300;
/** How long the drain after the SMTP outage may take before the bench gives up. */
const DRAIN_TIMEOUT_MS = 10 * 60_000;
/** The worker's first retry after a failed send (30 s by default, doubled each time): shortened so the drain fits the run. */
const RETRY_BASE_SECONDS = "5";

/** How long before the SMTP outage the notification fans out (the fan-out of 10,000 emails takes seconds under load). */
const OUTAGE_LEAD_MS = 8_000;

type Twist = "none" | "smtp-outage" | "backup";

const generator = loadGenerator();
const usesWrk = generator.name.startsWith("wrk");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function runScenario(title: string, twist: Twist): Promise<boolean> {
  // Again before each scenario: another build in the same checkout may have replaced build/.
  buildIfMissing();
  const site = await prepareSite(SUBSCRIBERS);
  const peer = await startCountingPeer();
  const cleanUp = async () => {
    await peer.stop();
    await site.database.close();
    rmSync(site.workDir, { recursive: true, force: true });
  };
  const server = await startQuietServer(site.dataDir, {
    SMTP_URL: peer.url,
    NEWSLETTER_POLL_SECONDS: "1",
    MAIL_RETRY_BASE_SECONDS: RETRY_BASE_SECONDS,
  }).catch(async (error: unknown) => {
    await cleanUp();
    throw error;
  });
  try {
    const chapter = `/projects/${site.slugs[Math.floor(site.slugs.length / 2)]}`;
    const pages = ["/", chapter, "/blog", "/resources", "/about"];
    // One visit per page first, as any visitor after a restart makes it: the first render
    // of a page in a new process (code not yet compiled, highlighting not yet loaded) is
    // what a cold start costs, not what the load costs.
    for (const page of pages) await (await fetch(`${server.url}${page}`)).arrayBuffer();
    const cookie = await signIn(server.url, EDITOR.email);
    const middleFrom = (DURATION_SECONDS * 1000) / 3;
    const middleTo = (DURATION_SECONDS * 2000) / 3;

    // Queued as publishing a chapter queues it (the product's own function). For the
    // SMTP outage, its grace period brings the fan-out some seconds before the peer
    // goes away, so the outage comes while the emails are going out.
    const notification = await scheduleNotification(
      site.database.db,
      { type: "chapter", id: `bench-load-${twist}`, title: "Threat modelling a home lab", url: chapter },
      { graceMs: twist === "smtp-outage" ? Math.max(0, middleFrom - OUTAGE_LEAD_MS) : 0 },
    );
    if (!notification) throw new Error("No notification was queued: automatic notifications are off?");

    const memory = sampleMemory(server.pid);
    const health = probe(`${server.url}/healthz`);
    // One visitor per page beside wrk's: if wrk counts a page's answers as over 2 s while
    // this one never waited that long, wrk's own process was held, not the server.
    const pageProbes = pages.map((page) => probe(`${server.url}${page}`, 250));
    const editor = await startEditor(server.url, cookie, site.database);
    const serverCpuBefore = processCpuSeconds(server.pid);
    const benchCpuBefore = process.cpuUsage();

    let deliveredBeforeOutage = 0;
    const outage =
      twist === "smtp-outage"
        ? (async () => {
            await sleep(middleFrom);
            deliveredBeforeOutage = peer.received.size;
            await peer.stop();
            await sleep(middleTo - middleFrom);
            await peer.start();
          })()
        : undefined;
    const backups: Promise<BackupRun[]> =
      twist === "backup" ? backupLoop(site.dataDir, middleFrom, middleTo) : Promise.resolve([]);

    const headers = { ...BROWSER_HEADERS, "Accept-Encoding": "gzip, deflate, br" };
    const connections = Math.floor(VISITORS / pages.length);
    const loadStart = performance.now();
    const results: LoadResult[] = await Promise.all(
      pages.map((page) =>
        generator.run({ url: `${server.url}${page}`, connections, seconds: DURATION_SECONDS, headers }),
      ),
    );
    const serverCpu = (processCpuSeconds(server.pid) - serverCpuBefore) / DURATION_SECONDS;
    const benchCpuUsed = process.cpuUsage(benchCpuBefore);
    const benchCpu = (benchCpuUsed.user + benchCpuUsed.system) / 1e6 / DURATION_SECONDS;
    await editor.stop();
    const probes = await health.stop();
    const pageProbeSamples = await Promise.all(pageProbes.map((pageProbe) => pageProbe.stop()));
    await outage;
    const backupRuns = await backups;
    const memoryFigures = memory.stop();
    const delivered = peer.received.size;
    const duplicates = peer.total() - delivered;

    const { errors } = printPageTable(title, pages, results, DURATION_SECONDS);
    const generatorCpu = usesWrk
      ? results.reduce((sum, result) => sum + result.generatorCpu, 0)
      : (results[0]?.generatorCpu ?? 0);
    console.log(
      `  CPU (cores of ${cpus().length}): server ${serverCpu.toFixed(2)}; load generator ${generatorCpu.toFixed(2)}${usesWrk ? ` (${pages.length} wrk processes)` : " (autocannon, this process)"}; this bench process (SMTP peer, editor, sampler) ${benchCpu.toFixed(2)}; load average after ${loadavg()[0]?.toFixed(2)}`,
    );
    // A probe fails as a visitor's request does: an error, or no answer within wrk's 2 s.
    const window = (from: number, to: number) => {
      const inside = probes.filter((probe) => probe.at - loadStart >= from && probe.at - loadStart < to);
      return `${inside.filter((probe) => !probe.ok || probe.ms > 2_000).length}/${inside.length}`;
    };
    console.log(
      `  GET /healthz every 200 ms: longest ${Math.max(0, ...probes.map((probe) => probe.ms)).toFixed(0)} ms; failed or over 2 s: ${window(0, middleFrom)} in the first third, ${window(middleFrom, middleTo)} in the middle third, ${window(middleTo, Number.POSITIVE_INFINITY)} in the last`,
    );
    const short = (page: string) => (page.length > 20 ? `${page.slice(0, 19)}…` : page);
    const longest = (samples: { ms: number }[]) => Math.max(0, ...samples.map((sample) => sample.ms)).toFixed(0);
    console.log(
      `  GET of each page every 250 ms beside wrk: longest ${pages.map((page, index) => `${short(page)} ${longest(pageProbeSamples[index] ?? [])} ms`).join(", ")}; failed or over 2 s: ${pageProbeSamples.flat().filter((sample) => !sample.ok || sample.ms > 2_000).length}`,
    );
    const slowest = pageProbeSamples
      .flatMap((samples, index) => samples.map((sample) => ({ ...sample, page: pages[index] as string })))
      .filter((sample) => sample.ms > 500)
      .sort((one, other) => other.ms - one.ms)
      .slice(0, 5);
    if (slowest.length > 0) {
      console.log(
        `  those over 500 ms (X-Page-Cache, seconds into the load): ${slowest.map((sample) => `${short(sample.page)} ${sample.ms.toFixed(0)} ms (${sample.cache ?? "failed"}, ${((sample.at - loadStart) / 1000).toFixed(1)} s)`).join(", ")}`,
      );
    }
    const { check, passed } = targetChecks();
    check(`errors: ${errors} (answers outside 2xx/3xx, socket errors, timeouts)`, "0", errors === 0);
    const saveTimes =
      editor.latencies.length > 0
        ? ` (save median ${median(editor.latencies).toFixed(0)} ms, p99 ${percentile(editor.latencies, 0.99).toFixed(0)} ms)`
        : "";
    check(
      `editor saves (POST /admin/tips, every second): ${editor.saves} done, ${editor.failures} failed${saveTimes}${editor.firstFailure ? `; first failure: ${editor.firstFailure}` : ""}`,
      "0 failed",
      editor.failures === 0 && editor.saves > 0,
    );
    check(
      `emails delivered by the end of the load: ${delivered} of ${SUBSCRIBERS} subscribers, ${duplicates} duplicates`,
      "0 duplicates",
      duplicates === 0,
    );
    check(
      `server peak RSS: ${memoryFigures.peakRss.toFixed(0)} MB (VmRSS every 150 ms; VmHWM ${memoryFigures.hwm.toFixed(0)} MB)`,
      `≤ ${RSS_TARGET_MB} MB`,
      memoryFigures.hwm <= RSS_TARGET_MB,
    );

    if (twist === "smtp-outage") {
      const outageSeconds = ((middleTo - middleFrom) / 1000).toFixed(0);
      console.log(
        `  SMTP peer stopped from ${(middleFrom / 1000).toFixed(0)} s to ${(middleTo / 1000).toFixed(0)} s; ${deliveredBeforeOutage} subscribers had their email before it stopped${SUBSCRIBERS > 0 && deliveredBeforeOutage >= SUBSCRIBERS ? " (the send was over: the outage tested only the retries of nothing)" : deliveredBeforeOutage === 0 ? " (none yet: the outage came before the first delivery)" : ""}`,
      );
      const drainStarted = performance.now();
      for (;;) {
        const progress = await notificationProgress(site.database.db, notification.id);
        if (progress.queued === 0 && progress.sent + progress.failed >= SUBSCRIBERS) break;
        if (performance.now() - drainStarted > DRAIN_TIMEOUT_MS)
          throw new Error(`The outbox did not drain: ${JSON.stringify(progress)}`);
        await sleep(250);
      }
      const drainSeconds = (performance.now() - drainStarted) / 1000;
      const progress = await notificationProgress(site.database.db, notification.id);
      const recipients = Array.from({ length: SUBSCRIBERS }, (_, index) => subscriberEmail(index));
      const { missing, duplicates: twice } = deliveryCheck(peer.received, recipients);
      check(
        `after a ${outageSeconds} s SMTP outage, outbox drained ${drainSeconds.toFixed(1)} s after the load: ${SUBSCRIBERS - missing} subscribers got it, ${missing} lost, ${twice} sent twice (outbox: ${progress.sent} sent, ${progress.failed} failed)`,
        "nothing lost, nothing sent twice",
        missing === 0 && twice === 0 && progress.failed === 0,
      );
    }
    if (twist === "backup") {
      const failed = backupRuns.filter((run) => run.exitCode !== 0);
      const seconds = backupRuns.map((run) => run.seconds);
      check(
        `npm run cli -- backup in a loop from ${(middleFrom / 1000).toFixed(0)} s to ${(middleTo / 1000).toFixed(0)} s: ${backupRuns.length} backups, ${failed.length} failed${seconds.length ? `, median ${median(seconds).toFixed(1)} s each` : ""}; visitors' errors ${errors}`,
        "0 errors",
        errors === 0 && failed.length === 0 && backupRuns.length > 0,
      );
      if (failed[0]) console.log(`  first failed backup:\n${failed[0].output.trim()}`);
    }
    return passed();
  } finally {
    await server.stop();
    await cleanUp();
  }
}

console.log(
  `bench:load — ${VISITORS} anonymous visitors (${Math.floor(VISITORS / 5)} connections on each of 5 public pages) for ${DURATION_SECONDS} s, an editor saving every second, a notification to ${SUBSCRIBERS} subscribers`,
);
console.log(`load generator: ${generator.name}${usesWrk ? "" : ` — install it with: ${INSTALL_HINT}`}`);
console.log(
  `server: production build, one process, SQLite, each page visited once before the load, LOG_LEVEL=warn, MAIL_RETRY_BASE_SECONDS=${RETRY_BASE_SECONDS}; ${cpus().length} CPUs, load average before ${loadavg()
    .map((load) => load.toFixed(2))
    .join(" ")}`,
);
const passed = [
  await runScenario("1. visitors, editor, notification", "none"),
  await runScenario(
    `2. the same, the SMTP peer stopped for the middle ${(DURATION_SECONDS / 3).toFixed(0)} s`,
    "smtp-outage",
  ),
  await runScenario(
    `3. the same, npm run cli -- backup in a loop over the middle ${(DURATION_SECONDS / 3).toFixed(0)} s`,
    "backup",
  ),
];
console.log("");
console.log(passed.every(Boolean) ? "all targets met" : "targets missed: see MISS above");
