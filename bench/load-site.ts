import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { deriveActivePeriods } from "../server/db/migrations/0008-newsletter-active-periods.ts";
import type { prepareDatabase } from "../server/db/setup.ts";
import { PROJECT_ROOT } from "../tests/helpers/run-script.ts";
import { serverEnvironment } from "../tests/helpers/server.ts";
import { createBenchSite } from "./web-data.ts";

/**
 * What bench:load's scenarios run beside the visitors: a fresh site (bench:web's data
 * set, its editor, and the newsletter's subscribers), an editor saving a tip every
 * second over HTTP, the server's memory sampled from /proc, and `npm run cli -- backup`
 * in a loop.
 */

export type Database = Awaited<ReturnType<typeof prepareDatabase>>;

/** The subscribers' addresses, in the order they were written. */
export function subscriberEmail(index: number): string {
  return `reader${String(index).padStart(6, "0")}@example.test`;
}

/** A fresh data folder with the data set, the editor and `subscribers` confirmed subscribers; the database stays open. */
export async function prepareSite(subscribers: number) {
  const { workDir, dataDir, database, slugs } = await createBenchSite("bastion-bench-load-");
  const confirmedAt = new Date(Date.now() - 2 * 86_400_000).toISOString();
  for (let start = 0; start < subscribers; start += 1_000) {
    const rows = [];
    for (let index = start; index < Math.min(subscribers, start + 1_000); index++) {
      rows.push({
        id: `sub-${index}`,
        email: subscriberEmail(index),
        status: "active" as const,
        confirmed_at: confirmedAt,
      });
    }
    await database.db.insertInto("newsletter_subscribers").values(rows).execute();
  }
  // Their active periods, which the newsletter screen's chart reads, as migrations derive them.
  await deriveActivePeriods(database.db);
  return { workDir, dataDir, database, slugs };
}

export interface Editor {
  saves: number;
  failures: number;
  /** How long each save took, in milliseconds. */
  latencies: number[];
  /** Why the first failure happened, for the report. */
  firstFailure?: string;
  stop(): Promise<void>;
}

/**
 * The signed-in editor: every second, the form of the Tips admin screen's edit dialog
 * posted to /admin/tips (intent update-tip) with the revision the dialog holds, as a
 * browser without JavaScript posts it. Every save is a content write: the page cache
 * of every public page is invalidated, so the visitors also meet pages rendered anew.
 */
export async function startEditor(base: string, cookie: string, database: Database): Promise<Editor> {
  const tip = await database.db
    .selectFrom("tips_resources")
    .select(["id", "revision", "category"])
    .orderBy("order_index")
    .executeTakeFirstOrThrow();
  let revision = tip.revision;
  let running = true;
  const editor: Editor = { saves: 0, failures: 0, latencies: [], stop: async () => {} };
  const loop = (async () => {
    for (let round = 0; running; round++) {
      const due = performance.now() + 1_000;
      const form = new URLSearchParams({
        intent: "update-tip",
        id: tip.id,
        revision: String(revision),
        title: `Tip 1: tune your scan policies (edit ${round})`,
        category: tip.category,
        description: `Start from a template, remove the plugins you never act on (saved ${new Date().toISOString()}).`,
        url: "https://example.com/tips/1",
        type: "external",
      });
      const begin = performance.now();
      try {
        const response = await fetch(`${base}/admin/tips`, {
          method: "POST",
          headers: { Cookie: cookie, Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
          body: form,
          redirect: "manual",
        });
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`POST /admin/tips answered ${response.status}`);
        editor.saves += 1;
        editor.latencies.push(performance.now() - begin);
        revision += 1;
      } catch (error) {
        editor.failures += 1;
        editor.firstFailure ??= (error as Error).message;
        // As the screen does after a refused save: the dialog is opened again on the row as it is now.
        const row = await database.db
          .selectFrom("tips_resources")
          .select("revision")
          .where("id", "=", tip.id)
          .execute();
        revision = row[0]?.revision ?? revision;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
    }
  })();
  editor.stop = async () => {
    running = false;
    await loop;
  };
  return editor;
}

/** Reads /proc/<pid>/status every `intervalMs`: the largest VmRSS seen, and VmHWM (the kernel's own peak) at the end. */
export function sampleMemory(pid: number, intervalMs = 150) {
  let peak = 0;
  const read = () => readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (status: string, name: string) =>
    Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, field(read(), "VmRSS"));
    } catch {}
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      const status = read();
      return { peakRss: Math.max(peak, field(status, "VmRSS")), hwm: field(status, "VmHWM") };
    },
  };
}

export interface BackupRun {
  seconds: number;
  exitCode: number | null;
  output: string;
}

/** `npm run cli -- backup` against the server's data folder, in its own process, as an operator runs it. */
export function runBackup(dataDir: string): Promise<BackupRun> {
  const started = performance.now();
  const child = spawn("npm", ["run", "--silent", "cli", "--", "backup"], {
    cwd: PROJECT_ROOT,
    env: serverEnvironment({ DATA_DIR: dataDir, LOG_LEVEL: "warn" }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  return new Promise((resolve) => {
    child.once("close", (exitCode) => resolve({ seconds: (performance.now() - started) / 1000, exitCode, output }));
  });
}

/** Backups one after the other from `fromMs` to `untilMs` after now; resolves with every run. */
export async function backupLoop(dataDir: string, fromMs: number, untilMs: number): Promise<BackupRun[]> {
  const start = performance.now();
  await new Promise((resolve) => setTimeout(resolve, fromMs));
  const runs: BackupRun[] = [];
  while (performance.now() - start < untilMs) runs.push(await runBackup(dataDir));
  return runs;
}

/**
 * GET `url` (/healthz asks the database; a page is a cache hit) every `intervalMs` on a connection of its own,
 * each answer kept with its time: the longest tells how long the server's event loop or
 * its database was held, and the slow or failed ones can be placed in the run (before,
 * during, after the SMTP outage or the backups), which wrk's totals cannot. A page's answer
 * also keeps its X-Page-Cache: hit, stale, or miss (this request rendered the page).
 */
export function probe(url: string, intervalMs = 200) {
  const samples: { at: number; ms: number; ok: boolean; cache?: string }[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const at = performance.now();
      let ok = false;
      let cache: string | undefined;
      try {
        const response = await fetch(url);
        await response.arrayBuffer();
        ok = response.status === 200;
        cache = response.headers.get("x-page-cache") ?? undefined;
      } catch {}
      samples.push({ at, ms: performance.now() - at, ok, cache });
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return samples;
    },
  };
}
