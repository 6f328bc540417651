import { request } from "../http/client.ts";

/**
 * A steady stream of GET requests from a few concurrent clients, each on a fresh
 * connection, recording every answer that is not a 200 and every request that failed
 * outright, with when it happened.
 */

export interface StreamFailure {
  path: string;
  atMs: number;
  status?: number;
  error?: string;
}

export interface StreamResult {
  sent: number;
  /** Requests sent after mark() was called. */
  sentAfterMark: number;
  failures: StreamFailure[];
  /** Slowest answer, in ms. */
  slowestMs: number;
}

export interface RequestStream {
  /** Notes a moment (e.g. an instance stopped): sentAfterMark counts from here. */
  mark(): void;
  stop(): Promise<StreamResult>;
}

export function streamRequests(base: string, paths: readonly string[], clients: number): RequestStream {
  const started = performance.now();
  let stopped = false;
  let markedAt: number | undefined;
  const result: StreamResult = { sent: 0, sentAfterMark: 0, failures: [], slowestMs: 0 };

  const client = async (offset: number) => {
    for (let turn = offset; !stopped; turn++) {
      const path = paths[turn % paths.length] as string;
      const sentAt = performance.now();
      result.sent++;
      if (markedAt !== undefined) result.sentAfterMark++;
      try {
        const answer = await request(`${base}${path}`);
        if (answer.status !== 200) result.failures.push({ path, atMs: sentAt - started, status: answer.status });
      } catch (error) {
        result.failures.push({ path, atMs: sentAt - started, error: (error as Error).message });
      }
      result.slowestMs = Math.max(result.slowestMs, performance.now() - sentAt);
    }
  };
  const running = Promise.all(Array.from({ length: clients }, (_, index) => client(index)));

  return {
    mark() {
      markedAt = performance.now();
    },
    async stop() {
      stopped = true;
      await running;
      return result;
    },
  };
}
