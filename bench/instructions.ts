import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { ENCODINGS, encodingHeaders, savePages, startMinimalNode } from "./baselines.ts";
import { buildIfMissing, startQuietServer } from "./bench-server.ts";
import { onPath } from "./load-generator.ts";
import { benchPages, createBenchSite, SECTIONS_PER_CHAPTER } from "./web-data.ts";

/**
 * `npm run bench:instructions`: the instructions the server executes per cached page it
 * answers, against the minimal node:http server answering the same bytes, both run
 * under valgrind's callgrind, which counts every instruction of the process.
 *
 * bench:web's requests per second move by 10–20% between runs on a shared machine; these
 * counts hardly depend on what else the machine runs (only through when V8's background
 * compiler finishes), so a change of a few hundred instructions per answer shows. What they leave out is what bench:web measures: the
 * kernel's part (socket writes, waking the client), cache misses, time. They do include
 * the process's other threads: V8 compiling and marking garbage in the background,
 * which a count of a few thousand requests may or may not catch (a median of three
 * counts once read 172,000 instructions an answer where the other rows read 110,000).
 * Such work only ever adds to a count, so each page is counted COUNTS times after a
 * warm-up and the lowest count is printed. Requests come from autocannon at 50
 * connections, as a browser's document loads (page views are counted as in production).
 *
 * With BENCH_CACHE_SIM=1, callgrind also simulates the first-level instruction and data
 * caches (`--cache-sim=yes`, their sizes read from the CPU) and the misses per answer of
 * the same count are printed beside it: a larger process spends its time less in more
 * instructions than in more misses (docs/benchmarks/page-cache-hits.md).
 */

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4_000);
const COUNTS = 3;
/** Counts whose connections were reset (see load) are taken again, up to this many times. */
const MAX_ATTEMPTS = 3;
/** The first page warms the server's code up; the other pages only their own data. */
const FIRST_WARM_UP = 20_000;
const WARM_UP = 3_000;
const INSTALL_VALGRIND = "apt-get install -y valgrind";
const CACHE_SIM = process.env.BENCH_CACHE_SIM === "1";

const valgrind = onPath("valgrind");
if (!valgrind || !onPath("callgrind_control")) {
  console.error(`bench:instructions needs valgrind (${INSTALL_VALGRIND})`);
  process.exit(1);
}

/**
 * valgrind names the pipes callgrind_control talks through after the $USER and $HOST
 * of the process it runs: the server's HOST is its listening address, 127.0.0.1, and
 * the minimal server is given the same.
 */
const CONTROL_ENV = { ...process.env, HOST: "127.0.0.1" };

function callgrind(outFile: string): string[] {
  return [
    valgrind as string,
    "--tool=callgrind",
    `--cache-sim=${CACHE_SIM ? "yes" : "no"}`,
    "--quiet",
    // Counting starts when asked, after the start-up and the warm-up.
    "--instr-atstart=no",
    // V8 writes machine code into memory as it compiles: valgrind must see it change.
    "--smc-check=all-non-file",
    `--callgrind-out-file=${outFile}`,
  ];
}

function control(pid: number, ...args: string[]): void {
  const run = spawnSync("callgrind_control", [...args, String(pid)], { env: CONTROL_ENV, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`callgrind_control ${args.join(" ")} failed: ${run.stderr}${run.stdout}`);
}

/**
 * Loads `url` with `requests` requests; returns how many met a reset connection. On a
 * slow machine, a server under valgrind reset about a dozen connections at one instant
 * now and then (ECONNRESET). The likely cause, not traced: the server stalls for seconds
 * (translating code, compiling), and when its event loop comes back, the keep-alive
 * timers of connections answered before the stall fire before their next requests,
 * waiting unread in the kernel, are read. Any other failure, or an answer that is not
 * 2xx, is an error.
 */
async function load(url: string, requests: number, headers: Record<string, string>): Promise<number> {
  // A server under valgrind answers tens of times more slowly, and pauses while valgrind
  // translates code it has not run yet: autocannon's 10 s timeout is too short for it.
  const otherErrors = new Set<string>();
  let resets = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url, connections: 50, amount: requests, headers, timeout: 120 }, (error, done) =>
      error ? reject(error) : resolve(done),
    );
    instance.on("reqError", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNRESET") resets += 1;
      else otherErrors.add(error.code ?? error.message);
    });
  });
  const failures = result.non2xx + result.errors + result.timeouts - resets;
  if (failures > 0) {
    throw new Error(
      `${url}: ${failures} of ${requests} requests failed (non-2xx ${result.non2xx}, timeouts ${result.timeouts}, errors: ${[...otherErrors].join(", ") || "none"})`,
    );
  }
  return resets;
}

/** Per answer: instructions, and with CACHE_SIM the first-level instruction and data cache misses. */
interface Count {
  instructions: number;
  instructionMisses?: number;
  dataMisses?: number;
}

/** What the process ran per answer over REQUESTS answers of `url`: one callgrind dump, read back. */
async function countPerAnswer(
  server: { pid: number; outFile: string },
  url: string,
  headers: Record<string, string>,
): Promise<Count> {
  for (let attempt = 1; ; attempt++) {
    control(server.pid, "--zero");
    control(server.pid, "--instr=on");
    const resets = await load(url, REQUESTS, headers);
    control(server.pid, "--instr=off");
    control(server.pid, "--dump");
    // A count with answers left undone, and connections opened again, is not one of
    // REQUESTS answers: taken again.
    if (resets === 0) break;
    if (attempt === MAX_ATTEMPTS) throw new Error(`${url}: connections reset in ${MAX_ATTEMPTS} counts in a row`);
    console.log(`(${url}: ${resets} connections reset; counted again)`);
  }
  // Each dump is a new file: the out file's name, then its number.
  const folder = path.dirname(server.outFile);
  const prefix = `${path.basename(server.outFile)}.`;
  const dumps = readdirSync(folder)
    .filter((name) => name.startsWith(prefix))
    .sort((a, b) => Number(a.slice(prefix.length)) - Number(b.slice(prefix.length)));
  const newest = dumps.at(-1);
  if (!newest) throw new Error(`callgrind wrote no dump to ${folder}`);
  const latest = readFileSync(path.join(folder, newest), "utf8");
  const events = /^events: (.+)$/m.exec(latest)?.[1]?.split(" ");
  const totals = /^totals: (.+)$/m.exec(latest)?.[1]?.split(" ").map(Number);
  if (!events || !totals) throw new Error(`No events or totals in callgrind's dump ${newest}`);
  const perAnswer = (event: string) => {
    const index = events.indexOf(event);
    return index === -1 ? undefined : (totals[index] as number) / REQUESTS;
  };
  return {
    instructions: perAnswer("Ir") as number,
    instructionMisses: perAnswer("I1mr"),
    // Of reads and of writes; both are absent without the simulation.
    dataMisses: CACHE_SIM ? (perAnswer("D1mr") ?? 0) + (perAnswer("D1mw") ?? 0) : undefined,
  };
}

buildIfMissing();
const { workDir, dataDir, database, slugs } = await createBenchSite("bastion-bench-instructions-");
await database.close();
const { pages } = benchPages(slugs);

const bastionOut = path.join(workDir, "bastion.callgrind");
const server = await startQuietServer(dataDir, {}, { wrapper: callgrind(bastionOut), startTimeoutMs: 180_000 });
const minimalOut = path.join(workDir, "minimal.callgrind");
let minimal: Awaited<ReturnType<typeof startMinimalNode>> | undefined;
try {
  const saved = await savePages(server.url, pages);
  minimal = await startMinimalNode(workDir, saved, { wrapper: callgrind(minimalOut), env: CONTROL_ENV });

  console.log(
    `bench:instructions — instructions per cached answer, counted by callgrind over ${REQUESTS} requests (50 connections) after a warm-up, the lowest of ${COUNTS} counts; chapter of ${SECTIONS_PER_CHAPTER} sections`,
  );
  console.log("server: production build, one process, SQLite, LOG_LEVEL=warn (no request log lines)");
  console.log(`baseline: ${minimal.name}`);
  console.log("");
  const missColumns = CACHE_SIM
    ? `   L1 misses: ${"I Bastion".padStart(9)} ${"node:http".padStart(9)} ${"D Bastion".padStart(9)} ${"node:http".padStart(9)}`
    : "";
  console.log(
    `${"".padEnd(44)} ${"Bastion".padStart(9)} ${"node:http".padStart(9)} ${"ratio".padStart(6)}${missColumns}`,
  );
  const targets = [
    { pid: server.pid, outFile: bastionOut, url: server.url },
    { pid: minimal.pid, outFile: minimalOut, url: minimal.url },
  ];
  const counted = new Map<string, Count[]>();
  // One server at a time: under valgrind each needs a core of its own, and autocannon
  // another.
  for (const target of targets) {
    let warmUp = FIRST_WARM_UP;
    for (const page of pages) {
      for (const encoding of ENCODINGS) {
        const label = `${page.length > 30 ? `${page.slice(0, 29)}…` : page} ${encoding}`;
        const url = `${target.url}${page}`;
        const headers = encodingHeaders(encoding);
        await load(url, warmUp, headers);
        warmUp = WARM_UP;
        const counts: Count[] = [];
        for (let count = 0; count < COUNTS; count++) counts.push(await countPerAnswer(target, url, headers));
        const lowest = counts.reduce((low, count) => (count.instructions < low.instructions ? count : low));
        counted.set(label, [...(counted.get(label) ?? []), lowest]);
      }
    }
  }
  const figure = (value: number | undefined) => (value ?? Number.NaN).toFixed(0).padStart(9);
  for (const [label, [bastion, node]] of counted as Map<string, [Count, Count]>) {
    // As bench:web's ratios: above 1 where Bastion needs fewer instructions than node:http.
    const ratio = node.instructions / bastion.instructions;
    const misses = CACHE_SIM
      ? `              ${figure(bastion.instructionMisses)} ${figure(node.instructionMisses)} ${figure(bastion.dataMisses)} ${figure(node.dataMisses)}`
      : "";
    console.log(
      `${label.padEnd(44)} ${figure(bastion.instructions)} ${figure(node.instructions)} ${ratio.toFixed(3).padStart(6)}${misses}`,
    );
  }
} finally {
  minimal?.stop();
  await server.stop();
  rmSync(workDir, { recursive: true, force: true });
}
