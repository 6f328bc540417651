import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import type { Kysely } from "kysely";
import pino from "pino";
import { loadConfig } from "../server/config.ts";
import type { Database } from "../server/db/schema.ts";
import { prepareDatabase } from "../server/db/setup.ts";
import { PROJECT_ROOT } from "../tests/helpers/run-script.ts";
import { freePort } from "../tests/helpers/server.ts";
import { buildIfMissing, startQuietServer } from "./bench-server.ts";
import { lighthouseScores } from "./lighthouse.ts";

/**
 * `npm run bench:web`: the production server on a fresh SQLite database with a
 * realistic data set, measured with autocannon (50 connections) on the public pages,
 * against a static baseline serving the same HTML bytes in the same run: nginx when it
 * is installed, else a minimal node:http server. Also prints the gzip size of the
 * client JavaScript and CSS each page loads. Targets: every cached page at
 * least 0.5 of the baseline's requests/second, p99 at most 25 ms; JS ≤ 130 KB and
 * CSS ≤ 20 KB gzip per route.
 */

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 8);
const CHAPTERS = 20;
const SECTIONS_PER_CHAPTER = 30;
const JS_BUDGET_KB = 130;
const CSS_BUDGET_KB = 20;

// ---------------------------------------------------------------------------------------
// The data set

const CODE_SAMPLES = [
  {
    language: "bash",
    content:
      'nmap -sV -p 1-65535 --open -oA scans/full 10.0.0.0/24\nfor host in $(cat hosts.txt); do\n  curl -sk "https://$host/.well-known/security.txt"\ndone',
  },
  {
    language: "python",
    content:
      'import boto3\n\ndef public_buckets():\n    s3 = boto3.client("s3")\n    for bucket in s3.list_buckets()["Buckets"]:\n        acl = s3.get_bucket_acl(Bucket=bucket["Name"])\n        if any(g["Grantee"].get("URI", "").endswith("AllUsers") for g in acl["Grants"]):\n            yield bucket["Name"]\n',
  },
  {
    language: "json",
    content:
      '{\n  "Version": "2012-10-17",\n  "Statement": [{ "Effect": "Deny", "Action": "s3:*", "Resource": "*",\n    "Condition": { "Bool": { "aws:SecureTransport": "false" } } }]\n}',
  },
  {
    language: "typescript",
    content:
      "export async function scan(targets: string[]): Promise<Finding[]> {\n  const findings: Finding[] = [];\n  for (const target of targets) {\n    const response = await fetch(`https://$" +
      '{target}`, { redirect: "manual" });\n    if (!response.headers.get("strict-transport-security")) findings.push({ target, issue: "no HSTS" });\n  }\n  return findings;\n}',
  },
];

const PARAGRAPH =
  "Vulnerability management is a loop, not a project: discover the assets, assess them, prioritise what matters to the business, remediate, and verify that the fix held. Each pass teaches you something about the environment that the last scan missed.";

/** An SVG figure as a data: URI (the CSP allows data: images). */
function figureDataUri(label: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360" viewBox="0 0 640 360"><rect width="640" height="360" fill="#0f172a"/><path d="M40 300 L200 180 L320 240 L480 100 L600 160" fill="none" stroke="#22d3ee" stroke-width="6"/><text x="40" y="60" fill="#e2e8f0" font-family="sans-serif" font-size="28">${label}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

function sectionFor(chapter: number, index: number) {
  const kind = index % 10;
  if (kind === 0)
    return {
      type: "heading" as const,
      content: `Part ${index / 10 + 1}: scanning chapter ${chapter}`,
      caption: null,
      language: null,
    };
  if (kind === 3 || kind === 7) {
    const sample = CODE_SAMPLES[(chapter + index) % CODE_SAMPLES.length] as (typeof CODE_SAMPLES)[number];
    return {
      type: "code" as const,
      content: sample.content,
      caption: `Listing ${chapter}.${index}`,
      language: sample.language,
    };
  }
  if (kind === 5) {
    return {
      type: "image" as const,
      // A small inline SVG: the data set is written straight into the database, so the
      // media library holds no files to point at (they would have to be uploaded through
      // /api/media first), and a broken image would cost the page its Lighthouse
      // best-practices score.
      content: figureDataUri(`Figure ${chapter}.${index}`),
      caption: `Figure ${chapter}.${index}: the dashboard after the first scan`,
      language: null,
    };
  }
  if (kind === 6) {
    return {
      type: "list" as const,
      content:
        "Inventory every asset\nAuthenticate the scans\nTrack findings to closure\nReport on risk, not on counts",
      caption: null,
      language: null,
    };
  }
  if (kind === 9) {
    return {
      type: "tip" as const,
      content: "Schedule authenticated scans outside business hours and tell the SOC first.",
      caption: null,
      language: null,
    };
  }
  return { type: "text" as const, content: `${PARAGRAPH}\n\n${PARAGRAPH}`, caption: null, language: null };
}

async function insertDataSet(db: Kysely<Database>): Promise<string[]> {
  const day = (offset: number) => new Date(Date.UTC(2025, 0, 1) + offset * 86_400_000).toISOString();
  const slugs: string[] = [];
  for (let number = 1; number <= CHAPTERS; number++) {
    const id = randomUUID();
    const slug = `chapter-${number}-vulnerability-management-in-practice`;
    slugs.push(slug);
    await db
      .insertInto("chapters")
      .values({
        id,
        slug,
        title: `Chapter ${number}: Vulnerability management in practice`,
        number,
        order_index: number,
        published: true,
        published_at: day(number * 7),
        created_at: day(number * 7),
        updated_at: day(number * 7),
      })
      .execute();
    await db
      .insertInto("chapter_sections")
      .values(
        Array.from({ length: SECTIONS_PER_CHAPTER }, (_, index) => ({
          id: randomUUID(),
          chapter_id: id,
          order_index: index,
          ...sectionFor(number, index),
        })),
      )
      .execute();
  }
  const tipCategories = ["Tenable", "AWS", "Security Tips", "Career"] as const;
  await db
    .insertInto("tips_resources")
    .values(
      Array.from({ length: 40 }, (_, index) => ({
        id: randomUUID(),
        category: tipCategories[index % 4] as (typeof tipCategories)[number],
        title: `Tip ${index + 1}: tune your scan policies`,
        description: "Start from a template, remove the plugins you never act on, and keep the credentialed checks.",
        url: index % 5 === 4 ? null : `https://example.com/tips/${index + 1}`,
        type: index % 5 === 4 ? ("coming-soon" as const) : ("external" as const),
        order_index: index,
        created_at: day(index * 3),
      })),
    )
    .execute();
  const resourceCategories = ["Learning", "Tools", "News", "Certifications", "Services"] as const;
  await db
    .insertInto("resources")
    .values(
      Array.from({ length: 40 }, (_, index) => ({
        id: randomUUID(),
        name: `Resource ${index + 1}`,
        description: "A well-maintained reference that security teams keep coming back to.",
        url: `https://example.org/resources/${index + 1}`,
        category: resourceCategories[index % 5] as (typeof resourceCategories)[number],
        featured: index < 6,
        order_index: index,
        created_at: day(index * 2),
      })),
    )
    .execute();
  await db
    .insertInto("certifications")
    .values(
      ["CISSP", "OSCP", "AWS Security Specialty", "CCSP", "Tenable Certified"].map((name, index) => ({
        id: randomUUID(),
        name,
        organization: "Certification body",
        description: `${name}: what it covers and why it helped.`,
        date: `202${index}`,
        status: (["completed", "completed", "in-progress", "planned", "completed"] as const)[index],
        order_index: index,
      })),
    )
    .execute();
  await db
    .insertInto("skills")
    .values(
      ["Vulnerability management", "AWS", "Python", "Threat modelling", "Incident response", "Terraform"].map(
        (name, index) => ({ id: randomUUID(), name, level: 95 - index * 7, category: "Technical", order_index: index }),
      ),
    )
    .execute();
  return slugs;
}

// ---------------------------------------------------------------------------------------
// Measuring

interface Figures {
  perSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function measure(url: string, seconds = DURATION_SECONDS): Promise<Figures> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds });
  return {
    perSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

async function warm(url: string, count = 20): Promise<void> {
  for (let index = 0; index < count; index++) await (await fetch(url)).arrayBuffer();
}

function onPath(command: string): string | undefined {
  const found = spawnSync("sh", ["-c", `command -v ${command}`], { encoding: "utf8" });
  const location = found.stdout.trim();
  return found.status === 0 && location ? location : undefined;
}

/** Serves the saved pages from `root` (index.html per folder). */
async function startBaseline(root: string): Promise<{ name: string; url: string; stop: () => void }> {
  const port = await freePort();
  const nginx = onPath("nginx");
  let child: ChildProcess;
  let name: string;
  if (nginx) {
    const prefix = path.join(root, "..", "nginx");
    mkdirSync(path.join(prefix, "logs"), { recursive: true });
    const conf = path.join(prefix, "nginx.conf");
    writeFileSync(
      conf,
      `daemon off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  types { text/html html; }
  server {
    listen 127.0.0.1:${port};
    root ${root};
    location / { index index.html; try_files $uri $uri/index.html =404; }
  }
}
`,
    );
    child = spawn(nginx, ["-p", prefix, "-c", conf], { stdio: ["ignore", "ignore", "pipe"] });
    name = `nginx (${nginx}, 1 worker process)`;
  } else {
    const script = `
      import { createServer } from "node:http";
      import { readFileSync, existsSync } from "node:fs";
      import path from "node:path";
      const root = ${JSON.stringify(root)};
      const cache = new Map();
      createServer((req, res) => {
        const file = path.join(root, req.url.split("?")[0], "index.html");
        let body = cache.get(file);
        if (!body && existsSync(file)) cache.set(file, (body = readFileSync(file)));
        if (!body) { res.writeHead(404).end(); return; }
        res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": body.length });
        res.end(body);
      }).listen(${port}, "127.0.0.1", () => console.log("ready"));
    `;
    child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
    name = "minimal node:http server (nginx is not installed)";
  }
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/`)).ok) break;
    } catch {}
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`The baseline (${name}) did not start`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { name, url, stop: () => child.kill("SIGTERM") };
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

const workDir = mkdtempSync(path.join(tmpdir(), "bastion-bench-web-"));
// nginx's worker process runs as an unprivileged user when the bench runs as root: it
// must be able to read the saved pages (mkdtemp makes the folder private).
chmodSync(workDir, 0o755);
const dataDir = path.join(workDir, "data");
mkdirSync(dataDir);
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "error" });
const database = await prepareDatabase(config.database, pino({ level: "silent" }));
const slugs = await insertDataSet(database.db);
await database.close();

const pages = ["/", `/projects/${slugs[Math.floor(slugs.length / 2)]}`, "/blog", "/resources", "/about"];
const server = await startQuietServer(dataDir);
let baseline: Awaited<ReturnType<typeof startBaseline>> | undefined;
try {
  const siteRoot = path.join(workDir, "site");
  const htmlByPage = new Map<string, string>();
  for (const page of pages) {
    await warm(`${server.url}${page}`);
    const response = await fetch(`${server.url}${page}`);
    const html = await response.text();
    if (response.status !== 200) throw new Error(`${page} answered ${response.status}`);
    htmlByPage.set(page, html);
    const folder = path.join(siteRoot, page);
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, "index.html"), html);
  }
  baseline = await startBaseline(siteRoot);

  console.log(
    `bench:web — ${CONNECTIONS} connections, ${DURATION_SECONDS} s per measurement; ${CHAPTERS} chapters × ${SECTIONS_PER_CHAPTER} sections, 40 tips, 40 resources`,
  );
  console.log(`baseline: ${baseline.name}, serving the same HTML bytes`);
  console.log("server: production build, one process, SQLite, LOG_LEVEL=warn (no request log lines)");
  console.log("");
  console.log(
    `${"page".padEnd(58)} ${"KB".padStart(6)} ${"req/s".padStart(8)} ${"p50".padStart(5)} ${"p99".padStart(5)} │ ${"base req/s".padStart(10)} ${"p50".padStart(5)} ${"p99".padStart(5)} │ ratio`,
  );
  const failures: string[] = [];
  for (const page of pages) {
    const html = htmlByPage.get(page) as string;
    const site = await measure(`${server.url}${page}`);
    const base = await measure(`${baseline.url}${page}`);
    const ratio = site.perSecond / base.perSecond;
    const flags = [
      ratio < 0.5 ? "below 0.5" : "",
      site.p99 > 25 ? "p99 > 25 ms" : "",
      site.non2xx || site.errors ? `${site.non2xx} non-2xx, ${site.errors} errors` : "",
    ].filter(Boolean);
    if (flags.length) failures.push(`${page}: ${flags.join(", ")}`);
    console.log(
      `${page.padEnd(58)} ${(Buffer.byteLength(html) / 1024).toFixed(1).padStart(6)} ${site.perSecond.toFixed(0).padStart(8)} ${String(site.p50).padStart(5)} ${String(site.p99).padStart(5)} │ ${base.perSecond.toFixed(0).padStart(10)} ${String(base.p50).padStart(5)} ${String(base.p99).padStart(5)} │ ${ratio.toFixed(2)}${flags.length ? `  ← ${flags.join(", ")}` : ""}`,
    );
  }

  console.log("");
  console.log(`client assets per route (gzip -9; budgets JS ≤ ${JS_BUDGET_KB} KB, CSS ≤ ${CSS_BUDGET_KB} KB)`);
  // The newsletter pages too: the public pages React hydrates (decision 009).
  for (const page of ["/newsletter/confirm?token=bench", "/newsletter/unsubscribe?token=bench"]) {
    htmlByPage.set(page, await (await fetch(`${server.url}${page}`)).text());
  }
  for (const page of htmlByPage.keys()) {
    const { js, css } = assetsOf(htmlByPage.get(page) as string);
    const jsSize = gzipKb(js);
    const cssSize = gzipKb(css);
    if (jsSize.kb > JS_BUDGET_KB || cssSize.kb > CSS_BUDGET_KB) failures.push(`${page}: assets over budget`);
    const missing = jsSize.missing + cssSize.missing;
    if (missing) failures.push(`${page}: ${missing} referenced assets not in build/client`);
    console.log(
      `${page.padEnd(58)} JS ${jsSize.kb.toFixed(1).padStart(6)} KB (${js.size} files)   CSS ${cssSize.kb.toFixed(1).padStart(5)} KB (${css.size} files)${missing ? `   ${missing} missing` : ""}`,
    );
  }

  console.log("");
  // Lighthouse on the pages the issue names: /, a chapter, /resources (mobile, its defaults).
  const lighthousePages = pages.filter(
    (page) => page === "/" || page.startsWith("/projects/") || page === "/resources",
  );
  const scores = await lighthouseScores(lighthousePages.map((page) => `${server.url}${page}`));
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
  baseline?.stop();
  await server.stop();
  rmSync(workDir, { recursive: true, force: true });
}
