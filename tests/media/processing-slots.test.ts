import { describe, expect, it } from "vitest";
import { createProcessingSlots } from "../../server/media/processing-slots.ts";

describe("processing slots", () => {
  it("run at most that many jobs at once, the others in the order they came, through failures", async () => {
    const run = createProcessingSlots(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const job = (index: number) => async () => {
      started.push(index);
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
      if (index === 1) throw new Error("bad image");
      return index;
    };
    const results = await Promise.allSettled([0, 1, 2, 3, 4, 5].map((index) => run(job(index))));
    expect(most).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(results.map((result) => result.status)).toEqual([
      "fulfilled",
      "rejected",
      "fulfilled",
      "fulfilled",
      "fulfilled",
      "fulfilled",
    ]);
    // A slot freed by a failure is used again: a later job still runs at once.
    expect(await run(async () => "after")).toBe("after");
  });
});
