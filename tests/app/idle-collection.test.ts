import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { collectGarbageWhenIdle, IDLE_AFTER_MS } from "../../server/http/idle-collection.ts";

describe("collectGarbageWhenIdle", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("collects once when a busy spell falls idle, never while requests come, and not again until the next", () => {
    const collect = vi.fn();
    const debug = vi.fn();
    const idle = collectGarbageWhenIdle(collect, { debug });
    try {
      // A server that has served nothing has nothing to collect.
      vi.advanceTimersByTime(3 * IDLE_AFTER_MS);
      expect(collect).not.toHaveBeenCalled();

      // Requests in every period: busy, never collected.
      for (let period = 0; period < 4; period++) {
        idle.requestSeen();
        vi.advanceTimersByTime(IDLE_AFTER_MS);
      }
      expect(collect).not.toHaveBeenCalled();

      // The first whole period without a request: one collection, and none after it.
      vi.advanceTimersByTime(IDLE_AFTER_MS);
      expect(collect).toHaveBeenCalledTimes(1);
      // The kind of collection that gives pages back to the system: a regular one keeps them.
      expect(collect).toHaveBeenCalledWith({ type: "major", flavor: "last-resort" });
      expect(debug).toHaveBeenCalledWith(
        expect.objectContaining({ requests: 4 }),
        "Collected garbage after a busy spell",
      );
      vi.advanceTimersByTime(5 * IDLE_AFTER_MS);
      expect(collect).toHaveBeenCalledTimes(1);

      // A later spell, even of one request, is collected after it in turn.
      idle.requestSeen();
      vi.advanceTimersByTime(2 * IDLE_AFTER_MS);
      expect(collect).toHaveBeenCalledTimes(2);
    } finally {
      idle.stop();
    }
  });

  it("leaves pauses of a few seconds between requests alone, and collects within a minute of the last one", () => {
    // Each collection costs the next visitors a cold young generation for seconds: a
    // site whose visitors come every 10 s (bench:web's pauses between its runs) must
    // not pay it after each of them.
    const collect = vi.fn();
    const idle = collectGarbageWhenIdle(collect, { debug: vi.fn() });
    try {
      for (let visit = 0; visit < 12; visit++) {
        idle.requestSeen();
        vi.advanceTimersByTime(10_000);
      }
      expect(collect).not.toHaveBeenCalled();
      vi.advanceTimersByTime(50_000);
      expect(collect).toHaveBeenCalledTimes(1);
    } finally {
      idle.stop();
    }
  });

  it("does nothing without V8's gc (a server started without --expose-gc)", () => {
    const idle = collectGarbageWhenIdle(undefined, { debug: vi.fn() });
    idle.requestSeen();
    expect(() => vi.advanceTimersByTime(3 * IDLE_AFTER_MS)).not.toThrow();
    idle.stop();
  });
});
