import { chmodSync, existsSync, readFileSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { signIn } from "../tests/helpers/accounts.ts";
import { PROJECT_ROOT } from "../tests/helpers/run-script.ts";
import {
  type Baseline,
  ENCODINGS,
  encodingHeaders,
  NGINX_MISSING,
  savePages,
  startMinimalNode,
  startNginx,
} from "./baselines.ts";
import { buildIfMissing, startQuietServer } from "./bench-server.ts";
import { lighthouseScores } from "./lighthouse.ts";
import { type LoadResult, loadGenerator, median, processCpuSeconds, residentMegabytes } from "./load-generator.ts";
import { benchPages, CHAPTERS, createBenchSite, EDITOR, SECTIONS_PER_CHAPTER } from "./web-data.ts";

/**
 * `npm run bench:web`: the production server on a fresh SQLite database with a
 * realistic data set, driven by a load generator that is not the bottleneck (wrk when
 * installed, see bench/load-generator.ts), several rounds, medians printed (a ratio
 * between two servers: the median of the rounds' ratios, see pairedRatio):
 * - the cached public pages, identity and gzip, each against nginx serving the same
 *   bodies and a minimal node:http server answering the same headers and bodies from
 *   memory (the runtime's own ceiling), with the server's and the generator's CPU share,
 *   and how often the server collected its young generation during its runs; and,
 *   for information, against a minimal server that also ends each turn's answers
 *   together, as the page cache does (bench/baselines.ts);
 * - the same pages rendered for a signed-in editor (never cached), at 50 connections
 *   for throughput and at one connection for the render's own latency, and a not-found
 *   page (rendered every time by design);
 * - the server's resident memory idle, after the cached load and after the rendered load;
 * - the gzip size of the client JavaScript and CSS each page loads, and Lighthouse.
 * Requests look like a browser's document loads (User-Agent, Accept), so page views are
 * counted as in production. Targets: cached pages ≥ 0.9 of node:http and ≥ 0.6 of nginx
 * with p99 ≤ 10 ms; the rendered chapter's p50 ≤ 10 ms; RSS ≤ 200 MB after the bench;
 * JS ≤ 130 KB and CSS ≤ 20 KB gzip per route.
 */

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 4);
/** Five: the median of three rounds was one round, and a round swings by 10% or more here. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** Skips Lighthouse (a minute of Chromium) when only the server's figures are wanted. */
const LIGHTHOUSE = process.env.BENCH_LIGHTHOUSE !== "0";
/** After the load, the server's resident memory is read every RSS_SAMPLE_MS for RSS_SETTLE_MS. */
const RSS_SETTLE_MS = 75_000;
const RSS_SAMPLE_MS = 15_000;
const JS_BUDGET_KB = 130;
const CSS_BUDGET_KB = 20;

// ---------------------------------------------------------------------------------------
// Measuring

interface Row {
  results: LoadResult[];
  /** The measured server's CPU share of one core, per run. */
  serverCpu: number[];
}

/** METRICS_TOKEN of the measured server: /metrics tells its garbage collections. */
const METRICS_TOKEN = "bench-web-metrics-token";

interface YoungCollections {
  count: number;
  seconds: number;
}

/**
 * The server's young-generation collections (scavenges) so far, from prom-client's GC
 * histogram at /metrics. V8 grows the young generation under a steady load, but a
 * process can stay with a small one and scavenge several times as often, at a cost of
 * microseconds a request (docs/benchmarks/page-cache-hits.md): the bench says which
 * state each of its runs was in.
 */
async function youngCollections(url: string): Promise<YoungCollections> {
  const response = await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
  if (!response.ok) throw new Error(`GET /metrics answered ${response.status}`);
  const text = await response.text();
  const read = (name: string) => {
    const value = Number(text.match(new RegExp(`^${name}\\{kind="minor"\\} (\\S+)$`, "m"))?.[1]);
    if (!Number.isFinite(value)) throw new Error(`/metrics has no ${name} for minor collections`);
    return value;
  };
  return { count: read("nodejs_gc_duration_seconds_count"), seconds: read("nodejs_gc_duration_seconds_sum") };
}

const generator = loadGenerator();

async function measure(row: Row, url: string, pid: number, headers: Record<string, string>, connections = CONNECTIONS) {
  const cpuBefore = processCpuSeconds(pid);
  const result = await generator.run({ url, connections, seconds: DURATION_SECONDS, headers });
  row.results.push(result);
  row.serverCpu.push((processCpuSeconds(pid) - cpuBefore) / DURATION_SECONDS);
}

function summary(row: Row) {
  const of = (pick: (result: LoadResult) => number) => median(row.results.map(pick));
  return {
    perSecond: of((result) => result.perSecond),
    p50: of((result) => result.p50),
    p99: of((result) => result.p99),
    failures: row.results.reduce((sum, result) => sum + result.failures, 0),
    /** What failed, per run that had failures (wrk: non-2xx/3xx, socket errors, its 2 s timeouts). */
    failureKinds: row.results
      .filter((result) => result.failures > 0)
      .map((result) => result.failureKinds ?? `${result.failures}`)
      .join("; "),
    generatorCpu: of((result) => result.generatorCpu),
    serverCpu: median(row.serverCpu),
  };
}

const newRow = (): Row => ({ results: [], serverCpu: [] });

/** A cached page's rows: Bastion and the baselines (the last one ends each turn's answers together). */
interface CachedRows {
  bastion: Row;
  nginx: Row;
  node: Row;
  together: Row;
}

/**
 * Bastion's requests/second against a baseline's: the median of the rounds' ratios,
 * each of two runs made one after the other. The machine's speed drifts between rounds
 * (a baseline's rounds here ranged from 44,000 to 56,000 requests/s), and a ratio of
 * the two medians could pair one server's fast round with the other's slow one.
 */
interface PairedRatio {
  median: number;
  lowest: number;
  highest: number;
}

function pairedRatio(bastion: Row, baseline: Row): PairedRatio {
  const ratios = bastion.results.map(
    (result, round) => result.perSecond / (baseline.results[round] as LoadResult).perSecond,
  );
  return { median: median(ratios), lowest: Math.min(...ratios), highest: Math.max(...ratios) };
}

/** A ratio as printed: the median, and the rounds' range, which shows how far one round can be trusted. */
const ratioText = (ratio: PairedRatio, of: string) =>
  `${ratio.median.toFixed(2)} of ${of} (${ratio.lowest.toFixed(2)}–${ratio.highest.toFixed(2)})`;
const percent = (share: number) => `${Math.round(share * 100)}%`.padStart(5);

/**
 * One line of figures. The server's CPU time per request holds still on a busy machine,
 * where requests/second and latencies move with what else runs.
 */
function printRow(label: string, row: Row, extra = "", { errorsExpected = false } = {}) {
  const figures = summary(row);
  const cpuPerRequest = (figures.serverCpu / figures.perSecond) * 1e6;
  console.log(
    `${label.padEnd(44)} ${figures.perSecond.toFixed(0).padStart(7)} ${figures.p50.toFixed(2).padStart(7)} ${figures.p99.toFixed(2).padStart(7)} ${percent(figures.serverCpu)} ${cpuPerRequest.toFixed(1).padStart(7)} ${percent(figures.generatorCpu)}${figures.failures && !errorsExpected ? `  ${figures.failures} failed (${figures.failureKinds})` : ""}${extra}`,
  );
  return figures;
}

/** Client assets a page loads: scripts, module preloads, imports in inline scripts and stylesheets. */
function assetsOf(html: string): { js: Set<string>; css: Set<string> } {
  const js = new Set<string>();
  const css = new Set<string>();
  for (const match of html.matchAll(/["'(](\/assets\/[^"')\s]+\.(js|css))["')]/g)) {
    const [, asset, kind] = match;
    (kind === "css" ? css : js).add(asset as string);
  }
  return { js, css };
}

/** Gzip size of the files in KB, and how many the build folder does not hold (rebuilt meanwhile?). */
function gzipKb(assets: Set<string>): { kb: number; missing: number } {
  let bytes = 0;
  let missing = 0;
  for (const asset of assets) {
    const file = path.join(PROJECT_ROOT, "build/client", asset);
    if (existsSync(file)) bytes += gzipSync(readFileSync(file), { level: 9 }).length;
    else missing++;
  }
  return { kb: bytes / 1024, missing };
}

// ---------------------------------------------------------------------------------------

buildIfMissing();

const { workDir, dataDir, database, slugs } = await createBenchSite("bastion-bench-web-");
await database.close();
// nginx's worker process runs as an unprivileged user when the bench runs as root: it
// must be able to read the saved pages (mkdtemp makes the folder private).
chmodSync(workDir, 0o755);

const { chapter, pages } = benchPages(slugs);
const server = await startQuietServer(dataDir, { METRICS_TOKEN });
const baselines: Baseline[] = [];
const failures: string[] = [];
try {
  const saved = await savePages(server.url, pages);
  const nginx = await startNginx(workDir, saved);
  if (nginx) baselines.push(nginx);
  const minimalNode = await startMinimalNode(workDir, saved);
  baselines.push(minimalNode);
  const endingTogether = await startMinimalNode(workDir, saved, { endTogether: true });
  baselines.push(endingTogether);

  const idleRss = residentMegabytes(server.pid);
  console.log(
    `bench:web — ${CONNECTIONS} connections, ${DURATION_SECONDS} s per run, ${ROUNDS} rounds (medians); ${CHAPTERS} chapters × ${SECTIONS_PER_CHAPTER} sections, 40 tips, 40 resources`,
  );
  console.log(`load generator: ${generator.name}`);
  console.log(`baselines: ${nginx ? nginx.name : NGINX_MISSING}; ${minimalNode.name}; ${endingTogether.name}`);
  console.log("server: production build, one process, SQLite, LOG_LEVEL=warn (no request log lines)");
  console.log(
    `load average before: ${loadavg()
      .map((load) => load.toFixed(2))
      .join(" ")}`,
  );
  console.log("");

  // ---- Cached pages
  console.log("cached pages (anonymous visitors)");
  // cpu: the measured server's CPU share of one core; µs/req: its CPU time per request;
  // gen: the load generator's CPU share of one core.
  const header = `${"".padEnd(44)} ${"req/s".padStart(7)} ${"p50 ms".padStart(7)} ${"p99 ms".padStart(7)} ${"cpu".padStart(5)} ${"µs/req".padStart(7)} ${"gen".padStart(5)}`;
  console.log(header);
  const cachedRows = new Map<string, CachedRows>();
  /** Per Bastion run: young-generation collections per 1,000 requests, and their time per request. */
  const scavenges = { perThousand: [] as number[], microseconds: [] as number[] };
  for (const page of pages) {
    for (const encoding of ENCODINGS)
      cachedRows.set(`${page} ${encoding}`, { bastion: newRow(), nginx: newRow(), node: newRow(), together: newRow() });
  }
  // Rounds outermost: a burst of load from other processes hits every row alike. Within
  // a round the servers run back to back, each round starting one server later (Bastion,
  // nginx, node:http, …; then nginx, node:http, …, Bastion), so that each runs in every
  // place alike. Reversing the order every other round had one server run twice in a
  // row across every round's boundary, without the pause the others had between their
  // runs: the first page of each round read 0.77–0.83 of node:http, whichever page it
  // was, where the other pages read 0.79–1.07 (docs/benchmarks/page-cache-hits.md).
  for (let round = 0; round < ROUNDS; round++) {
    for (const page of pages) {
      for (const encoding of ENCODINGS) {
        const rows = cachedRows.get(`${page} ${encoding}`) as CachedRows;
        const headers = encodingHeaders(encoding);
        const runs = [
          async () => {
            const before = await youngCollections(server.url);
            await measure(rows.bastion, `${server.url}${page}`, server.pid, headers);
            const after = await youngCollections(server.url);
            const requests = (rows.bastion.results.at(-1) as LoadResult).perSecond * DURATION_SECONDS;
            scavenges.perThousand.push(((after.count - before.count) / requests) * 1000);
            scavenges.microseconds.push(((after.seconds - before.seconds) / requests) * 1e6);
          },
          () => (nginx ? measure(rows.nginx, `${nginx.url}${page}`, nginx.pid, headers) : undefined),
          () => measure(rows.node, `${minimalNode.url}${page}`, minimalNode.pid, headers),
          () => measure(rows.together, `${endingTogether.url}${page}`, endingTogether.pid, headers),
        ];
        const first = round % runs.length;
        for (const run of [...runs.slice(first), ...runs.slice(0, first)]) await run();
      }
    }
  }
  for (const page of pages) {
    for (const encoding of ENCODINGS) {
      const rows = cachedRows.get(`${page} ${encoding}`) as CachedRows;
      const label = `${page.length > 30 ? `${page.slice(0, 29)}…` : page} ${encoding}`;
      const bastion = summary(rows.bastion);
      const ofNode = pairedRatio(rows.bastion, rows.node);
      const ofNginx = nginx ? pairedRatio(rows.bastion, rows.nginx) : undefined;
      const missed = [
        ofNode.median < 0.9 ? "below 0.9 of node:http" : "",
        ofNginx !== undefined && ofNginx.median < 0.6 ? "below 0.6 of nginx" : "",
        bastion.p99 > 10 ? "p99 > 10 ms" : "",
        bastion.failures ? `${bastion.failures} failed requests` : "",
      ].filter(Boolean);
      if (missed.length) failures.push(`${label}: ${missed.join(", ")}`);
      printRow(
        `${label}  Bastion`,
        rows.bastion,
        `  │ ${ratioText(ofNode, "node:http")}${ofNginx === undefined ? "" : `, ${ratioText(ofNginx, "nginx")}`}${missed.length ? `  ← ${missed.join(", ")}` : ""}`,
      );
      if (nginx) printRow(`${"".padEnd(label.length)}  nginx`, rows.nginx);
      printRow(`${"".padEnd(label.length)}  node:http`, rows.node);
      printRow(
        `${"".padEnd(label.length)}  node:http, ended together`,
        rows.together,
        `  │ Bastion: ${ratioText(pairedRatio(rows.bastion, rows.together), "it")}`,
      );
    }
  }
  const spread = (values: number[], digits: number) =>
    `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
  console.log(
    `Bastion's young-generation collections, medians of its runs (range): ${spread(scavenges.perThousand, 1)} per 1,000 requests, ${spread(scavenges.microseconds, 2)} µs a request`,
  );
  const cachedRss = residentMegabytes(server.pid);

  // ---- Rendered pages: a signed-in editor reads the site (never cached), and a page not found.
  console.log("");
  console.log(`rendered pages (a signed-in editor; gzip): ${CONNECTIONS} connections, then 1 connection`);
  console.log(header);
  const session = await signIn(server.url, EDITOR.email);
  const rendered = [...pages, "/no-such-page"];
  const renderedRows = new Map(rendered.map((page) => [page, { loaded: newRow(), single: newRow() }]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const page of rendered) {
      const rows = renderedRows.get(page) as { loaded: Row; single: Row };
      const headers = { ...encodingHeaders("gzip"), Cookie: session };
      await measure(rows.loaded, `${server.url}${page}`, server.pid, headers);
      await measure(rows.single, `${server.url}${page}`, server.pid, headers, 1);
    }
  }
  for (const page of rendered) {
    const rows = renderedRows.get(page) as { loaded: Row; single: Row };
    const label = page.length > 30 ? `${page.slice(0, 29)}…` : page;
    const notFound = page === "/no-such-page";
    const expected = notFound ? "404" : "200";
    printRow(`${label} (${expected}), ${CONNECTIONS} connections`, rows.loaded, "", { errorsExpected: notFound });
    const single = printRow(`${"".padEnd(label.length)} (${expected}), 1 connection`, rows.single, "", {
      errorsExpected: notFound,
    });
    if (page === chapter && single.p50 > 10)
      failures.push(`${label} rendered: p50 ${single.p50.toFixed(1)} ms > 10 ms`);
  }
  const renderedRss = residentMegabytes(server.pid);
  // V8 lets garbage pile up in the old space while a load lasts (its next major GC waits
  // for a multiple of the live heap); the server's idle collection gives it back 30–60 s
  // after the last request (server/http/idle-collection.ts): read again until then.
  const settling: string[] = [];
  let settledRss = renderedRss;
  for (let waited = RSS_SAMPLE_MS; waited <= RSS_SETTLE_MS; waited += RSS_SAMPLE_MS) {
    await new Promise((resolve) => setTimeout(resolve, RSS_SAMPLE_MS));
    settledRss = residentMegabytes(server.pid);
    settling.push(`${settledRss.toFixed(0)} MB ${waited / 1000} s later`);
  }
  console.log("");
  console.log(
    `server RSS: ${idleRss.toFixed(0)} MB idle, ${cachedRss.toFixed(0)} MB after the cached pages, ${renderedRss.toFixed(0)} MB after the rendered pages, ${settling.join(", ")}`,
  );
  if (settledRss > 200) failures.push(`RSS ${settledRss.toFixed(0)} MB > 200 MB after the bench`);
  console.log(
    `load average after: ${loadavg()
      .map((load) => load.toFixed(2))
      .join(" ")}`,
  );

  // ---- Client assets
  console.log("");
  console.log(`client assets per route (gzip -9; budgets JS ≤ ${JS_BUDGET_KB} KB, CSS ≤ ${CSS_BUDGET_KB} KB)`);
  const htmlByPage = new Map(saved.map((page) => [page.path, page.identity.body.toString("utf8")]));
  // The newsletter pages too: the public pages React hydrates (decision 009).
  for (const page of ["/newsletter/confirm?token=bench", "/newsletter/unsubscribe?token=bench"]) {
    htmlByPage.set(page, await (await fetch(`${server.url}${page}`)).text());
  }
  for (const [page, html] of htmlByPage) {
    const { js, css } = assetsOf(html);
    const jsSize = gzipKb(js);
    const cssSize = gzipKb(css);
    if (jsSize.kb > JS_BUDGET_KB || cssSize.kb > CSS_BUDGET_KB) failures.push(`${page}: assets over budget`);
    const missing = jsSize.missing + cssSize.missing;
    if (missing) failures.push(`${page}: ${missing} referenced assets not in build/client`);
    console.log(
      `${page.padEnd(58)} JS ${jsSize.kb.toFixed(1).padStart(6)} KB (${js.size} files)   CSS ${cssSize.kb.toFixed(1).padStart(5)} KB (${css.size} files)${missing ? `   ${missing} missing` : ""}`,
    );
  }

  // ---- Lighthouse on /, a chapter and /resources (mobile, its defaults).
  console.log("");
  const scores = LIGHTHOUSE
    ? await lighthouseScores(["/", chapter, "/resources"].map((page) => `${server.url}${page}`))
    : { skipped: "BENCH_LIGHTHOUSE=0" };
  if ("skipped" in scores) {
    console.log(`lighthouse: skipped: ${scores.skipped}`);
  } else {
    console.log("lighthouse (mobile; targets: performance ≥ 98, the others 100)");
    for (const result of scores) {
      const page = result.url.slice(server.url.length);
      const missed =
        result.performance < 98 || result.accessibility < 100 || result.bestPractices < 100 || result.seo < 100;
      if (missed) failures.push(`${page}: Lighthouse below target`);
      console.log(
        `${page.padEnd(58)} performance ${result.performance}  accessibility ${result.accessibility}  best practices ${result.bestPractices}  SEO ${result.seo}`,
      );
      console.log(`${"".padEnd(58)} ${result.metrics}`);
      if (result.failedAudits.length) console.log(`${"".padEnd(58)} not passed: ${result.failedAudits.join(", ")}`);
    }
  }
  console.log("");
  console.log(failures.length ? `targets missed:\n  ${failures.join("\n  ")}` : "all targets met");
} finally {
  for (const baseline of baselines) baseline.stop();
  await server.stop();
  rmSync(workDir, { recursive: true, force: true });
}
