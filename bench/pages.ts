import { startServer } from "../tests/helpers/server.ts";
import { buildIfMissing } from "./bench-server.ts";

/**
 * `npm run bench:pages`: serves the production build on a fresh SQLite database and
 * measures server-rendered pages against /healthz (a JSON answer with one database
 * query), the baseline measured in the same run. Prints medians and ratios, which
 * stay comparable on a shared, noisy machine where absolute figures do not.
 */

const PATHS = ["/healthz", "/", "/blog", "/about", "/nope"];
const WARMUP_REQUESTS = 50;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 10);

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] as number;
}

async function measure(url: string, count: number) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      next++;
      const begin = performance.now();
      const response = await fetch(url);
      await response.arrayBuffer();
      latencies.push(performance.now() - begin);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { median: percentile(latencies, 0.5), p95: percentile(latencies, 0.95), perSecond: count / seconds };
}

buildIfMissing();

const server = await startServer();
try {
  console.log(`bench:pages — ${REQUESTS} requests per path, ${CONCURRENCY} concurrent, one server process`);
  console.log("path        median ms   p95 ms   req/s   median vs /healthz");
  let baseline: number | undefined;
  for (const pathname of PATHS) {
    await measure(`${server.url}${pathname}`, WARMUP_REQUESTS);
    const result = await measure(`${server.url}${pathname}`, REQUESTS);
    baseline ??= result.median;
    console.log(
      `${pathname.padEnd(10)} ${result.median.toFixed(2).padStart(9)} ${result.p95.toFixed(2).padStart(8)} ${result.perSecond
        .toFixed(0)
        .padStart(7)}   ${(result.median / baseline).toFixed(1)}×`,
    );
  }
} finally {
  await server.stop();
}
