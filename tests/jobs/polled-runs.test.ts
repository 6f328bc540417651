import { describe, expect, it, vi } from "vitest";
import { startPolledRuns } from "../../server/jobs/polled-runs.ts";
import { createLogger } from "../../server/logger.ts";

const logger = createLogger({ level: "silent" });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("polled runs", () => {
  it("wakes during a long run add one run after it, not one per wake", async () => {
    let runs = 0;
    const polled = startPolledRuns({
      run: async () => {
        runs++;
        await sleep(runs === 1 ? 400 : 5);
        return 0;
      },
      pollIntervalMs: 60_000,
      logger,
      failureMessage: "run failed",
    });
    await sleep(10);
    expect(runs).toBe(1);
    // Rows enqueued now and then while the first run works (a sending newsletter, sign-ups).
    for (let wake = 0; wake < 6; wake++) {
      polled.wake();
      await sleep(50);
    }
    await sleep(300);
    await polled.stop();
    expect(runs).toBe(2);
  });

  it("a wake is not held back by a step of the wall clock", async () => {
    let runs = 0;
    const polled = startPolledRuns({
      run: async () => {
        runs++;
        return 0;
      },
      pollIntervalMs: 60_000,
      logger,
      failureMessage: "run failed",
    });
    await sleep(10);
    expect(runs).toBe(1);
    // The next poll is a minute away; then the wall clock jumps two hours ahead.
    const wallClock = Date.now();
    const stepped = vi.spyOn(Date, "now").mockImplementation(() => wallClock + 2 * 3_600_000);
    try {
      polled.wake();
      await vi.waitFor(() => expect(runs).toBe(2), { timeout: 2_000 });
    } finally {
      stepped.mockRestore();
      await polled.stop();
    }
  });

  it("runOnce() while a run waits behind the one under way shares that run and its result", async () => {
    let runs = 0;
    const polled = startPolledRuns({
      run: async () => {
        runs++;
        await sleep(50);
        return runs;
      },
      pollIntervalMs: 60_000,
      autoRun: false,
      logger,
      failureMessage: "run failed",
    });
    const first = polled.runOnce();
    await sleep(10);
    const second = polled.runOnce();
    const third = polled.runOnce();
    expect(await Promise.all([first, second, third])).toEqual([1, 2, 2]);
    expect(await polled.runOnce()).toBe(3);
    await polled.stop();
  });
});
