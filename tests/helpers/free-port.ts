import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/**
 * Ports for test and bench servers, taken below the kernel's ephemeral range. A port
 * the kernel chose for a listener on port 0 comes from that range, and once released it
 * can be handed at once to an outgoing connection (a database client, a browser, a
 * load generator) as its local port: the server then started on it failed with
 * EADDRINUSE when the run was busy. Below the range only listeners take ports. Each
 * Vitest worker (VITEST_POOL_ID) draws from a slice of its own and this process never
 * hands out a port twice, so two servers starting at once do not pick the same one.
 */

const SLICE = 2_000;
const SLICES = 6;
const LOWEST_PORT = 1_024;
const ATTEMPTS = 50;

/** The first port of the kernel's ephemeral range (Linux), else IANA's. */
function readEphemeralStart(): number {
  try {
    const [start] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/);
    return Number(start) || 49_152;
  } catch {
    return 49_152;
  }
}

const EPHEMERAL_START = readEphemeralStart();
const handedOut = new Set<number>();

function slice(): { from: number; to: number } | undefined {
  const pool = Number(process.env.VITEST_POOL_ID ?? 0) % SLICES;
  const to = EPHEMERAL_START - pool * SLICE;
  const from = to - SLICE;
  return from >= LOWEST_PORT ? { from, to } : undefined;
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.unref();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

/** The port the kernel picks for port 0: where no slice below the ephemeral range exists. */
function anyPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => (port ? resolve(port) : reject(new Error("Could not read the probe's port"))));
    });
  });
}

/** A port that was free a moment ago on 127.0.0.1, and that this process has not handed out before. */
export async function freePort(): Promise<number> {
  const range = slice();
  if (range) {
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      const port = range.from + Math.floor(Math.random() * (range.to - range.from));
      if (handedOut.has(port) || !(await bindable(port))) continue;
      handedOut.add(port);
      return port;
    }
  }
  return anyPort();
}
