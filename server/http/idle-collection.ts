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

/**
 * Idle means a whole period without a request: the collection runs 30–60 s after the
 * last one. It also shrinks the young generation to its minimum, and the next visitors
 * pay for that until V8 grows it again: four to five times as many scavenges in the
 * first three seconds, some of several milliseconds, and still twice as many six
 * seconds on. After 5 s of quiet, as it once was, a load with short pauses paid it
 * after every pause: `npm run bench:web`, whose server waits about 10 s between its
 * runs, read cached-page p99s of 12.9–22.4 ms, and 3.4–7.5 ms with no idle collection
 * (docs/decisions/018-server-memory.md).
 */
export const IDLE_AFTER_MS = 30_000;

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
