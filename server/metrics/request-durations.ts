/**
 * bastion_http_request_duration_seconds: how many requests were answered and how long
 * they took, by method, route pattern and status class.
 *
 * Kept here rather than in prom-client's Histogram because it is counted on the page
 * cache's fast path: a labelled child's observe() there validates its labels, builds
 * their hash string and looks its bucket up by a number-keyed property, about 0.3 µs
 * per request (docs/decisions/015-metrics-and-request-ids.md). Here a series is found
 * through two array indexes and one Map lookup by a route string, and a bucket by
 * comparing numbers. The text rendered is what prom-client renders for the same
 * observations (tests/metrics/request-durations.test.ts compares the two).
 */

export const REQUEST_DURATIONS_NAME = "bastion_http_request_duration_seconds";
export const REQUEST_DURATIONS_HELP =
  "HTTP requests answered, by method, route pattern and status class, and how long they took";

/** Seconds: from a cache hit (well under a millisecond) to a slow export. */
export const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Known methods keep their name; anything else is counted as "OTHER", so the labels stay bounded. */
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "OTHER"];
const OTHER_METHOD = METHODS.length - 1;
/** Status classes 1xx–5xx; index 0 holds anything outside them. */
const STATUS_CLASSES = 6;

interface Series {
  /** The series' labels, formatted once: `method="GET",route="/",status="2xx"`. */
  labels: string;
  /** Observations per bucket (not cumulative); the last slot counts those above every bound. */
  counts: Float64Array;
  sum: number;
  count: number;
}

/** The method's place in METHODS; an unknown method (or none) counts as "OTHER". */
function methodIndex(method: string | undefined): number {
  const index = method === undefined ? -1 : METHODS.indexOf(method);
  return index === -1 ? OTHER_METHOD : index;
}

function statusClassIndex(status: number): number {
  const statusClass = Math.floor(status / 100);
  return statusClass >= 1 && statusClass < STATUS_CLASSES ? statusClass : 0;
}

/** A label value as the Prometheus text format escapes it (as prom-client does). */
function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
}

export class RequestDurations {
  /** Per route pattern: its series, indexed by method × status class, made on first use. */
  readonly #routes = new Map<string, (Series | undefined)[]>();
  /**
   * The route last observed and its series: cache hits, most of the requests, all have
   * the same route string, and comparing it is cheaper than finding it in the Map.
   */
  #lastRoute: string | undefined;
  #lastRouteSeries: (Series | undefined)[] = [];

  /** Counts one answered request and its duration. */
  observe(method: string | undefined, route: string, status: number, seconds: number): void {
    let routeSeries = route === this.#lastRoute ? this.#lastRouteSeries : this.#routes.get(route);
    if (!routeSeries) {
      routeSeries = new Array<Series | undefined>(METHODS.length * STATUS_CLASSES).fill(undefined);
      this.#routes.set(route, routeSeries);
    }
    this.#lastRoute = route;
    this.#lastRouteSeries = routeSeries;
    const verb = methodIndex(method);
    const statusClass = statusClassIndex(status);
    const slot = verb * STATUS_CLASSES + statusClass;
    let series = routeSeries[slot];
    if (!series) {
      const statusLabel = statusClass === 0 ? "other" : `${statusClass}xx`;
      series = {
        labels: `method="${METHODS[verb]}",route="${escapeLabelValue(route)}",status="${statusLabel}"`,
        counts: new Float64Array(LATENCY_BUCKETS.length + 1),
        sum: 0,
        count: 0,
      };
      routeSeries[slot] = series;
    }
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS.length && seconds > (LATENCY_BUCKETS[bucket] as number)) bucket += 1;
    series.counts[bucket] = (series.counts[bucket] as number) + 1;
    series.sum += seconds;
    series.count += 1;
  }

  /** The metric in the Prometheus text format, without a trailing newline (as a registry joins its metrics). */
  render(): string {
    const lines = [
      `# HELP ${REQUEST_DURATIONS_NAME} ${REQUEST_DURATIONS_HELP}`,
      `# TYPE ${REQUEST_DURATIONS_NAME} histogram`,
    ];
    for (const routeSeries of this.#routes.values()) {
      for (const series of routeSeries) {
        if (!series) continue;
        let cumulative = 0;
        for (const [index, bound] of LATENCY_BUCKETS.entries()) {
          cumulative += series.counts[index] as number;
          lines.push(`${REQUEST_DURATIONS_NAME}_bucket{le="${bound}",${series.labels}} ${cumulative}`);
        }
        lines.push(`${REQUEST_DURATIONS_NAME}_bucket{le="+Inf",${series.labels}} ${series.count}`);
        lines.push(`${REQUEST_DURATIONS_NAME}_sum{${series.labels}} ${series.sum}`);
        lines.push(`${REQUEST_DURATIONS_NAME}_count{${series.labels}} ${series.count}`);
      }
    }
    return lines.join("\n");
  }
}
