import { describe, expect, it, vi } from "vitest";
import { startPolledRuns } from "../../server/jobs/polled-runs.ts";
import { createLogger } from "../../server/logger.ts";

const logger = createLogger({ level: "silent" });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polled runs of `work` (given the run's number), a poll a minute; `runs()` counts the runs begun. */
function countedRuns(work: (run: number) => Promise<number>, options: { autoRun?: boolean } = {}) {
  let runs = 0;
  const polled = startPolledRuns({
    run: () => work(++runs),
    pollIntervalMs: 60_000,
    autoRun: options.autoRun,
    logger,
    failureMessage: "run failed",
  });
  return { polled, runs: () => runs };
}

describe("polled runs", () => {
  it("wakes during a long run add one run after it, not one per wake", async () => {
    const { polled, runs } = countedRuns(async (run) => {
      await sleep(run === 1 ? 400 : 5);
      return 0;
    });
    await sleep(10);
    expect(runs()).toBe(1);
    // Rows enqueued now and then while the first run works (a sending newsletter, sign-ups).
    for (let wake = 0; wake < 6; wake++) {
      polled.wake();
      await sleep(50);
    }
    await sleep(300);
    await polled.stop();
    expect(runs()).toBe(2);
  });

  it("a wake is not held back by a step of the wall clock", async () => {
    const { polled, runs } = countedRuns(async () => 0);
    await sleep(10);
    expect(runs()).toBe(1);
    // The next poll is a minute away; then the wall clock jumps two hours ahead.
    const wallClock = Date.now();
    const stepped = vi.spyOn(Date, "now").mockImplementation(() => wallClock + 2 * 3_600_000);
    try {
      polled.wake();
      await vi.waitFor(() => expect(runs()).toBe(2), { timeout: 2_000 });
    } finally {
      stepped.mockRestore();
      await polled.stop();
    }
  });

  it("runOnce() while a run waits behind the one under way shares that run and its result", async () => {
    const { polled } = countedRuns(
      async (run) => {
        await sleep(50);
        return run;
      },
      { autoRun: false },
    );
    const first = polled.runOnce();
    await sleep(10);
    const second = polled.runOnce();
    const third = polled.runOnce();
    expect(await Promise.all([first, second, third])).toEqual([1, 2, 2]);
    expect(await polled.runOnce()).toBe(3);
    await polled.stop();
  });
});
