import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Logger } from "../logger.ts";
import type { Metrics } from "./registry.ts";

/**
 * GET /metrics, for Prometheus. It tells how busy the site is and how its outboxes
 * fare, so it is never public: it needs METRICS_TOKEN as a bearer token, or is served
 * alone on HOST:METRICS_PORT (a port the firewall keeps to the monitoring network), or
 * both. With neither set there is no /metrics at all.
 */

export const METRICS_PATH = "/metrics";

export interface MetricsAccess {
  /** METRICS_TOKEN: required, when set, on every listener. */
  token?: string;
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/**
 * Whether the Authorization header carries the token. Both sides are hashed first, so
 * the comparison takes the same time whatever the length and content of a guess.
 */
export function hasBearerToken(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(authorization ?? "");
  return match?.[1] !== undefined && timingSafeEqual(digest(match[1]), digest(token));
}

/** Answers a request for the metrics; the caller has matched the path. */
export function serveMetrics(metrics: Metrics, access: MetricsAccess, logger: Pick<Logger, "error">) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    res.setHeader("Cache-Control", "no-store");
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8" }).end("Method Not Allowed");
      return;
    }
    if (access.token !== undefined && !hasBearerToken(req.headers.authorization, access.token)) {
      res
        .writeHead(401, { "WWW-Authenticate": 'Bearer realm="metrics"', "Content-Type": "text/plain; charset=utf-8" })
        .end("The metrics need the METRICS_TOKEN as a bearer token (Authorization: Bearer <token>).");
      return;
    }
    metrics.render().then(
      (text) => {
        res.writeHead(200, { "Content-Type": metrics.contentType });
        res.end(req.method === "HEAD" ? undefined : text);
      },
      (error: unknown) => {
        logger.error({ err: error }, "Could not collect the metrics");
        if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
        res.end("The metrics could not be collected.");
      },
    );
  };
}

/** The listener of METRICS_PORT: /metrics and nothing else. */
export async function startMetricsListener(options: {
  host: string;
  port: number;
  metrics: Metrics;
  access: MetricsAccess;
  logger: Pick<Logger, "error" | "info">;
}): Promise<Server> {
  const answer = serveMetrics(options.metrics, options.access, options.logger);
  const server = createServer((req, res) => {
    if ((req.url ?? "").split("?")[0] === METRICS_PATH) {
      answer(req, res);
      return;
    }
    res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not Found");
  });
  server.listen(options.port, options.host);
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  options.logger.info(
    { address: `http://${options.host}:${options.port}${METRICS_PATH}` },
    "Metrics listening on their own port",
  );
  return server;
}
