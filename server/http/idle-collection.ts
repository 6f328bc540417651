import type { Logger } from "../logger.ts";

/**
 * One full garbage collection, of the kind that gives memory back to the system, once
 * the server falls idle after serving requests (docs/decisions/018-server-memory.md).
 * V8 keeps what a busy spell grew the heap to until its next collection, which on a
 * quiet site may be a long way off: after the rendered-page load of `npm run bench:web`
 * the server stayed at 272–307 MB for as long as it was watched. V8's own memory reducer
 * does such a collection only when a recent full collection armed it, and a regular
 * collection (`gc()`) frees the garbage but keeps the pages (RSS unchanged).
 *
 * `collect` is V8's `gc`, exposed by `--expose-gc` (set by `npm start`, the systemd unit
 * and the tests); without it nothing is collected here.
 */

export interface IdleCollection {
  /** Called for every request: counts it, nothing more (it is on the cache's fast path). */
  requestSeen(): void;
  stop(): void;
}

/** Idle means a whole period without a request. */
export const IDLE_AFTER_MS = 5_000;

export function collectGarbageWhenIdle(
  collect: NodeJS.GCFunction | undefined,
  logger: Pick<Logger, "debug">,
  idleAfterMs: number = IDLE_AFTER_MS,
): IdleCollection {
  let requestsThisPeriod = 0;
  let requestsSinceCollection = 0;
  const timer = setInterval(() => {
    if (requestsThisPeriod > 0) {
      requestsSinceCollection += requestsThisPeriod;
      requestsThisPeriod = 0;
      return;
    }
    if (requestsSinceCollection === 0 || !collect) return;
    const requests = requestsSinceCollection;
    requestsSinceCollection = 0;
    const rssBefore = process.memoryUsage.rss();
    const started = performance.now();
    // "last-resort": collections until nothing more is freed, reducing the heap's
    // footprint (the kind V8 runs under memory pressure). Tens of milliseconds on this
    // server's heap, and the server is idle.
    collect({ type: "major", flavor: "last-resort" });
    logger.debug(
      {
        requests,
        durationMs: Math.round(performance.now() - started),
        rssBeforeMb: Math.round(rssBefore / 1e6),
        rssAfterMb: Math.round(process.memoryUsage.rss() / 1e6),
      },
      "Collected garbage after a busy spell",
    );
  }, idleAfterMs);
  timer.unref();
  return {
    requestSeen: () => {
      requestsThisPeriod += 1;
    },
    stop: () => clearInterval(timer),
  };
}
