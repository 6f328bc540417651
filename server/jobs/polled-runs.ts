import { performance } from "node:perf_hooks";
import type { Logger } from "../logger.ts";

/**
 * The run loop of an outbox worker (email, text messages): one run at a time, a run at
 * start-up, another every poll interval (for retries that fall due and rows other
 * instances wrote), and one soon after wake() — debounced, so a burst of enqueued rows
 * costs one run.
 */

export interface PolledRuns {
  /** Asks for a run soon, or in `afterMs`, unless one is already due sooner. */
  wake(afterMs?: number): void;
  /**
   * A run now, after the one under way (the run already queued behind it, if any);
   * resolves with what `run` handled, rejects with its error.
   */
  runOnce(): Promise<number>;
  /** True once stop() was called: a run under way should finish what it holds and claim nothing more. */
  readonly stopping: boolean;
  /** Stops scheduling runs; resolves when the run under way has ended. */
  stop(): Promise<void>;
}

export interface PolledRunsOptions {
  /** One run: handles what is due and resolves with how many rows it handled. */
  run: () => Promise<number>;
  pollIntervalMs: number;
  /** false: runs only when runOnce() is called (tests, CLI). Default true. */
  autoRun?: boolean;
  logger: Logger;
  /** Logged with the error when a scheduled run fails. */
  failureMessage: string;
}

/** Long enough to gather a burst of enqueued rows into one run, short enough to go unnoticed. */
const WAKE_DELAY_MS = 25;

export function startPolledRuns(options: PolledRunsOptions): PolledRuns {
  const { run, pollIntervalMs, logger, failureMessage } = options;
  let stopping = false;
  let tail: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let timerDueAt = Number.POSITIVE_INFINITY;

  /** The run queued behind the one under way, until it starts. */
  let waiting: Promise<number> | undefined;

  function runOnce(): Promise<number> {
    if (stopping) return Promise.resolve(0);
    // A run not started yet handles everything due when it starts: a second one queued
    // behind it would find nothing, and wakes during a long run would pile up runs.
    if (waiting) return waiting;
    const next = tail.then(() => {
      waiting = undefined;
      return run();
    });
    waiting = next;
    // The chain only orders the runs; a failed run's error goes to its own caller (returned below).
    tail = next.catch(() => {});
    return next;
  }

  /** Sets the timer unless one is already due sooner. */
  function schedule(delayMs: number): void {
    if (stopping || options.autoRun === false) return;
    // The monotonic clock, as setTimeout's: a step of the wall clock (NTP, a suspended
    // machine) must not make a timer due in an hour look due sooner than a wake's.
    const dueAt = performance.now() + delayMs;
    if (timer && timerDueAt <= dueAt) return;
    clearTimeout(timer);
    timerDueAt = dueAt;
    timer = setTimeout(tick, delayMs);
    timer.unref();
  }

  async function tick(): Promise<void> {
    timer = undefined;
    timerDueAt = Number.POSITIVE_INFINITY;
    try {
      await runOnce();
    } catch (error) {
      logger.error({ err: error }, failureMessage);
    }
    schedule(pollIntervalMs);
  }

  schedule(0);

  return {
    wake: (afterMs = WAKE_DELAY_MS) => schedule(afterMs),
    runOnce,
    get stopping() {
      return stopping;
    },
    async stop() {
      stopping = true;
      clearTimeout(timer);
      timer = undefined;
      await tail;
    },
  };
}
