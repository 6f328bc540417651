import { setTimeout as sleep } from "node:timers/promises";

/**
 * Answers whose timing would tell a stranger whether an account or a subscription
 * exists (a reset request does more work for a real account; a subscription less for an
 * address already active) are held until a fixed time after the request began. The
 * floor sits well above the work either way, so both answers leave at the floor and
 * differ only by the timer's jitter.
 */
export async function answerNoSoonerThan(startedAt: number, floorMs: number): Promise<void> {
  const wait = startedAt + floorMs - performance.now();
  if (wait > 0) await sleep(wait);
}

/**
 * How long after queuing its email a request held at a floor wakes the mail worker:
 * twice the floor, when its answer has long left. Woken at once, the worker's run
 * (commits that hold the event loop on SQLite until the disk has them) would fall in the
 * held answer's time, and only for requests that queued an email.
 */
export const runAfterAnswerMs = (floorMs: number) => 2 * floorMs;
