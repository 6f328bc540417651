import type { RequestHandler } from "express";

const PING_TIMEOUT_MS = 2000;

/** GET /healthz for load balancers: 200 when the database answers, 503 otherwise. */
export function healthCheck(ping: () => Promise<void>): RequestHandler {
  return async (_req, res) => {
    res.set("Cache-Control", "no-store");
    // Cleared once the ping has answered: left pending, each check's timer (and its
    // promise) would outlive the answer by the whole timeout.
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        ping(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error("timed out")), PING_TIMEOUT_MS).unref();
        }),
      ]);
      res.status(200).json({ status: "ok", database: "reachable" });
    } catch (error) {
      res.log?.error({ err: error }, "Health check: database unreachable");
      res.status(503).json({ status: "unavailable", database: "unreachable" });
    } finally {
      clearTimeout(timer);
    }
  };
}
