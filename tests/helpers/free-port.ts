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

/** Binds `port` on 127.0.0.1 for a moment (0: one the kernel picks); the port bound, or undefined if it was taken. */
function tryPort(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.unref();
    probe.once("error", () => resolve(undefined));
    probe.listen(port, "127.0.0.1", () => {
      const address = probe.address();
      const bound = typeof address === "object" && address ? address.port : undefined;
      probe.close(() => resolve(bound));
    });
  });
}

/** A port that was free a moment ago on 127.0.0.1, and that this process has not handed out before. */
export async function freePort(): Promise<number> {
  const range = slice();
  if (range) {
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      const port = range.from + Math.floor(Math.random() * (range.to - range.from));
      if (handedOut.has(port) || (await tryPort(port)) === undefined) continue;
      handedOut.add(port);
      return port;
    }
  }
  // No slice below the ephemeral range on this system, or none of it free: one the kernel picks.
  const port = await tryPort(0);
  if (port === undefined) throw new Error("Could not bind a probe to 127.0.0.1");
  return port;
}
