import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import autocannon from "autocannon";

/**
 * The load generator of bench:web, and what it costs. `wrk` (one thread, written in C)
 * when it is installed; else autocannon, a single Node process that saturates itself
 * near 20,000 requests/s on a small machine and then measures itself rather than the
 * server. Each run reports the generator's own CPU share, so a reader can tell.
 */

export const INSTALL_HINT = "apt-get install -y wrk nginx";

/** What a browser sends when it loads a page: page views are counted as in production. */
export const BROWSER_HEADERS = {
  "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
  Accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
};

export interface LoadResult {
  perSecond: number;
  /** Latency percentiles in milliseconds. */
  p50: number;
  p99: number;
  /** Answers outside 2xx/3xx, plus socket errors and timeouts. */
  failures: number;
  /** What the failures were, when the generator tells (wrk: non-2xx/3xx and each kind of socket error). */
  failureKinds?: string;
  /** CPU time the generator used, as a share of one core over the run. */
  generatorCpu: number;
}

export interface LoadOptions {
  url: string;
  connections: number;
  seconds: number;
  headers: Record<string, string>;
}

export interface LoadGenerator {
  name: string;
  run(options: LoadOptions): Promise<LoadResult>;
}

export function onPath(command: string): string | undefined {
  const found = spawnSync("sh", ["-c", `command -v ${command}`], { encoding: "utf8" });
  const location = found.stdout.trim();
  return found.status === 0 && location ? location : undefined;
}

/** wrk's durations ("812.00us", "1.23ms", "2.01s") in milliseconds. */
function milliseconds(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!match) throw new Error(`Unreadable wrk duration: ${text}`);
  const value = Number(match[1]);
  const unit = match[2];
  return unit === "us" ? value / 1000 : unit === "ms" ? value : unit === "s" ? value * 1000 : value * 60_000;
}

/** bash's `times`: "0m1.234s 0m0.567s" in seconds (user + system). */
function cpuSeconds(line: string): number {
  let total = 0;
  for (const match of line.matchAll(/(\d+)m([\d.]+)s/g)) total += Number(match[1]) * 60 + Number(match[2]);
  return total;
}

function runWrk(wrk: string, options: LoadOptions): Promise<LoadResult> {
  const args = [
    "-t1",
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    "--latency",
    ...Object.entries(options.headers).flatMap(([name, value]) => ["-H", `${name}: ${value}`]),
    options.url,
  ];
  // bash's `times` prints the CPU time of the children it waited for: wrk's own.
  const child = spawn("bash", ["-c", '"$0" "$@"; echo; times', wrk, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  child.stderr.resume();
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", () => {
      const perSecond = /Requests\/sec:\s+([\d.]+)/.exec(output);
      const p50 = /^\s+50%\s+(\S+)/m.exec(output);
      const p99 = /^\s+99%\s+(\S+)/m.exec(output);
      if (!perSecond || !p50 || !p99) {
        reject(new Error(`Unreadable wrk output:\n${output}`));
        return;
      }
      const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0);
      const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
      const errors = socketErrors ? socketErrors.slice(1).reduce((sum, count) => sum + Number(count), 0) : 0;
      const timesLines = output.trim().split("\n").slice(-1);
      resolve({
        perSecond: Number(perSecond[1]),
        p50: milliseconds(p50[1] as string),
        p99: milliseconds(p99[1] as string),
        failures: non2xx + errors,
        failureKinds: `non-2xx/3xx ${non2xx}${socketErrors ? `, connect ${socketErrors[1]}, read ${socketErrors[2]}, write ${socketErrors[3]}, timeout ${socketErrors[4]}` : ""}`,
        generatorCpu: cpuSeconds(timesLines[0] ?? "") / options.seconds,
      });
    });
  });
}

async function runAutocannon(options: LoadOptions): Promise<LoadResult> {
  const before = process.cpuUsage();
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    headers: options.headers,
  });
  const used = process.cpuUsage(before);
  return {
    perSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    generatorCpu: (used.user + used.system) / 1e6 / options.seconds,
  };
}

export function loadGenerator(): LoadGenerator {
  const wrk = onPath("wrk");
  if (wrk) return { name: `wrk (${wrk}, 1 thread)`, run: (options) => runWrk(wrk, options) };
  return {
    name: `autocannon, in this process: wrk is not installed (${INSTALL_HINT}); autocannon saturates near 20,000 req/s and then measures itself`,
    run: runAutocannon,
  };
}

/**
 * CPU seconds (user + system) a process and its children (nginx's worker) have used so
 * far, from /proc, in clock ticks of 1/100 s.
 */
export function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name may hold spaces: fields are counted after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const own = (Number(fields[11]) + Number(fields[12])) / 100;
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
  return children ? children.split(" ").reduce((sum, child) => sum + processCpuSeconds(Number(child)), own) : own;
}

/** Resident memory of a process in MB, from /proc. */
export function residentMegabytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kilobytes = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN);
  return kilobytes / 1024;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
