import { collectDefaultMetrics, Registry } from "prom-client";
import type { Logger } from "../logger.ts";
import { type DatabaseGaugeSources, registerDatabaseGauges } from "./database-gauges.ts";
import { RequestDurations } from "./request-durations.ts";

/**
 * The server's Prometheus metrics (docs/decisions/015-metrics-and-request-ids.md), in a
 * registry of this instance's own rather than prom-client's global one, so that two
 * servers in one process (tests) keep separate counts.
 *
 * Requests are one histogram, bastion_http_request_duration_seconds (./request-durations.ts,
 * rendered after the registry's metrics): its _count series are the request counts. Its
 * labels stay bounded: the method (known ones, else "OTHER"), the status class ("2xx")
 * and the route: the pattern React Router or Express matched ("/projects/:slug"),
 * "(page cache)" for a page answered from the cache, and "(other)" for the rest (static
 * files, unmatched paths). Never the raw path.
 */

export const PAGE_CACHE_ROUTE = "(page cache)";
export const OTHER_ROUTE = "(other)";

export interface Metrics {
  /** Counts one answered request and its duration. */
  observeRequest(method: string | undefined, route: string, status: number, seconds: number): void;
  /** The Prometheus text exposition of every metric. */
  render(): Promise<string>;
  contentType: string;
}

export interface MetricsOptions extends DatabaseGaugeSources {
  logger: Pick<Logger, "warn">;
}

export function createMetrics(options: MetricsOptions): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  registerDatabaseGauges(registry, options);
  const requests = new RequestDurations();
  return {
    observeRequest: (method, route, status, seconds) => requests.observe(method, route, status, seconds),
    // The registry joins its metrics with a blank line and ends with a newline.
    render: async () => `${await registry.metrics()}\n${requests.render()}\n`,
    contentType: registry.contentType,
  };
}
