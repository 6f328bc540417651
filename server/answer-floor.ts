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
