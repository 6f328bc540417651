import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { signIn } from "../tests/helpers/accounts.ts";
import { upload } from "../tests/http/media-client.ts";
import { buildIfMissing, startQuietServer } from "./bench-server.ts";

/**
 * `npm run bench:media`: the production server (SQLite, local media storage) takes a
 * 12-megapixel JPEG through POST /api/media. Prints the time to store it with all its
 * variants (one upload at a time), the server's peak memory during five concurrent
 * uploads, and the home page's p50/p99 for paced visitors while rounds of five
 * concurrent uploads run, beside the same figures before any upload. The server
 * inherits this environment: `MALLOC_ARENA_MAX=2 npm run bench:media` measures glibc
 * with fewer malloc arenas (docs/decisions/011-media-pipeline.md).
 */

const WIDTH = 4000;
const HEIGHT = 3000;
const SINGLE_UPLOADS = Number(process.env.BENCH_UPLOADS ?? 5);
const CONCURRENT = 5;
const LOAD_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const VISITORS = 10;
const THINK_MS = 10;
const ADMIN_EMAIL = "bench.media@example.test";
const ADMIN_PASSWORD = "bench media password 1234";

/** A photo-like 12 MP JPEG: noise, softened as a lens would, at a camera's quality. */
async function twelveMegapixelPhoto(): Promise<Buffer> {
  return sharp({
    create: {
      width: WIDTH,
      height: HEIGHT,
      channels: 3,
      background: "#6b7f99",
      noise: { type: "gaussian", mean: 120, sigma: 35 },
    },
  })
    .blur(1.4)
    .jpeg({ quality: 88 })
    .toBuffer();
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** A line of /proc/<pid>/status in MB (VmRSS: now; VmHWM: the peak since it was last reset). */
function memoryMb(pid: number, field: "VmRSS" | "VmHWM"): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

/** Resets VmHWM (Linux: writing 5 to clear_refs); false where that is not allowed. */
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

/**
 * The home page as visitors load it: VISITORS each request it, wait THINK_MS, and
 * again, for LOAD_SECONDS (an open, paced load; a closed loop at full speed would
 * measure the load generator's own queue, and take the CPUs from the uploads).
 */
async function homeLatency(url: string) {
  const latencies: number[] = [];
  let failures = 0;
  const end = performance.now() + LOAD_SECONDS * 1000;
  const visitor = async () => {
    while (performance.now() < end) {
      const started = performance.now();
      try {
        const response = await fetch(`${url}/`);
        await response.arrayBuffer();
        if (response.status === 200) latencies.push(performance.now() - started);
        else failures++;
      } catch {
        failures++;
      }
      await new Promise((resolve) => setTimeout(resolve, THINK_MS));
    }
  };
  await Promise.all(Array.from({ length: VISITORS }, visitor));
  latencies.sort((a, b) => a - b);
  const at = (fraction: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * fraction))] ?? 0;
  return {
    p50: at(0.5),
    p99: at(0.99),
    max: latencies.at(-1) ?? 0,
    perSecond: latencies.length / LOAD_SECONDS,
    failures,
  };
}

buildIfMissing();

const dataDir = mkdtempSync(path.join(tmpdir(), "bastion-bench-media-"));
const server = await startQuietServer(dataDir, { ADMIN_EMAIL, ADMIN_PASSWORD });
try {
  const photo = await twelveMegapixelPhoto();
  const cookie = await signIn(server.url, ADMIN_EMAIL, ADMIN_PASSWORD);
  const send = async () => {
    const started = performance.now();
    const answer = await upload(server.url, photo, "photo.jpg", { cookie });
    if (answer.status !== 201) throw new Error(`Upload answered ${answer.status}: ${answer.response.text()}`);
    return { ms: performance.now() - started, files: 1 + answer.json.variants.length, bytes: answer.json.bytes };
  };
  await (await fetch(`${server.url}/`)).arrayBuffer();
  const startMb = memoryMb(server.pid, "VmRSS");
  // The quiet figure first, before any image was processed.
  const quiet = await homeLatency(server.url);

  console.log(
    `bench:media — a ${WIDTH} × ${HEIGHT} JPEG (${(photo.length / 1024 / 1024).toFixed(2)} MB) through POST /api/media`,
  );
  console.log("server: production build, one process, SQLite, local storage, LOG_LEVEL=warn");
  console.log(
    `machine: ${availableParallelism()} cores, load average ${loadavg()[0]?.toFixed(2)} at start${process.env.MALLOC_ARENA_MAX ? `, MALLOC_ARENA_MAX=${process.env.MALLOC_ARENA_MAX}` : ""}`,
  );
  console.log("");

  const singles = [];
  for (let index = 0; index < SINGLE_UPLOADS; index++) singles.push(await send());
  const first = singles[0] as (typeof singles)[number];
  console.log(
    `store one image with its variants (${first.files} files, original re-encoded to ${(first.bytes / 1024 / 1024).toFixed(2)} MB), ${SINGLE_UPLOADS} uploads one at a time:`,
  );
  console.log(
    `  median ${median(singles.map((single) => single.ms)).toFixed(0)} ms, min ${Math.min(...singles.map((single) => single.ms)).toFixed(0)} ms, max ${Math.max(...singles.map((single) => single.ms)).toFixed(0)} ms`,
  );

  const idleMb = memoryMb(server.pid, "VmRSS");
  const peakResettable = resetPeak(server.pid);
  let sampledPeak = idleMb;
  const sampler = setInterval(() => {
    sampledPeak = Math.max(sampledPeak, memoryMb(server.pid, "VmRSS"));
  }, 10);
  const started = performance.now();
  const together = await Promise.all(Array.from({ length: CONCURRENT }, () => send()));
  const wallMs = performance.now() - started;
  clearInterval(sampler);
  const peakMb = peakResettable ? memoryMb(server.pid, "VmHWM") : sampledPeak;
  console.log(`${CONCURRENT} concurrent uploads:`);
  console.log(
    `  all stored in ${wallMs.toFixed(0)} ms (each ${median(together.map((one) => one.ms)).toFixed(0)} ms median, queued behind the processing slots)`,
  );
  console.log(
    `  server memory: ${startMb.toFixed(0)} MB resident at start, ${idleMb.toFixed(0)} MB after the single uploads, peak ${peakMb.toFixed(0)} MB during these (${peakResettable ? "VmHWM, reset before" : "VmRSS sampled every 10 ms"})`,
  );

  console.log("");
  console.log(
    `home page, ${VISITORS} visitors each loading it every ${THINK_MS} ms for ${LOAD_SECONDS} s (anonymous: the page cache):`,
  );
  let uploading = true;
  let uploaded = 0;
  const uploads = (async () => {
    while (uploading) {
      await Promise.all(Array.from({ length: CONCURRENT }, () => send()));
      uploaded += CONCURRENT;
    }
  })();
  const busy = await homeLatency(server.url);
  uploading = false;
  await uploads;
  const row = (label: string, figures: Awaited<ReturnType<typeof homeLatency>>) =>
    console.log(
      `  ${label.padEnd(40)} p50 ${figures.p50.toFixed(1).padStart(5)} ms   p99 ${figures.p99.toFixed(1).padStart(6)} ms   max ${figures.max.toFixed(0).padStart(4)} ms   ${figures.perSecond.toFixed(0)} req/s${figures.failures ? `   ${figures.failures} failed` : ""}`,
    );
  row("without uploads", quiet);
  row(`during uploads (${uploaded} images, ${CONCURRENT} at a time)`, busy);
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
