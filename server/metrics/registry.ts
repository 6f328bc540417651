import { collectDefaultMetrics, Histogram, Registry } from "prom-client";
import type { Logger } from "../logger.ts";
import { type DatabaseGaugeSources, registerDatabaseGauges } from "./database-gauges.ts";

/**
 * The server's Prometheus metrics (docs/decisions/015-metrics-and-request-ids.md), in a
 * registry of this instance's own rather than prom-client's global one, so that two
 * servers in one process (tests) keep separate counts.
 *
 * Requests are one histogram, bastion_http_request_duration_seconds: its _count series
 * are the request counts. Its labels stay bounded: the method (known ones, else
 * "OTHER"), the status class ("2xx") and the route: the pattern React Router or Express
 * matched ("/projects/:slug"), "(page cache)" for a page answered from the cache, and
 * "(other)" for the rest (static files, unmatched paths). Never the raw path.
 */

export const PAGE_CACHE_ROUTE = "(page cache)";
export const OTHER_ROUTE = "(other)";

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
/** Seconds: from a cache hit (well under a millisecond) to a slow export. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type LabelledHistogram = ReturnType<Histogram<"method" | "route" | "status">["labels"]>;

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
  const requests = new Histogram({
    name: "bastion_http_request_duration_seconds",
    help: "HTTP requests answered, by method, route pattern and status class, and how long they took",
    labelNames: ["method", "route", "status"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  registerDatabaseGauges(registry, options);

  // One child per label set, found by a string key: observe() then neither validates
  // nor hashes labels, which keeps the page cache's fast path cheap.
  const children = new Map<string, LabelledHistogram>();
  return {
    observeRequest(method, route, status, seconds) {
      const verb = method !== undefined && METHODS.has(method) ? method : "OTHER";
      const statusClass = `${Math.floor(status / 100)}xx`;
      const key = `${verb} ${statusClass} ${route}`;
      let child = children.get(key);
      if (!child) {
        child = requests.labels({ method: verb, route, status: statusClass });
        children.set(key, child);
      }
      child.observe(seconds);
    },
    render: () => registry.metrics(),
    contentType: registry.contentType,
  };
}
