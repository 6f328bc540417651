import { Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import {
  LATENCY_BUCKETS,
  REQUEST_DURATIONS_HELP,
  REQUEST_DURATIONS_NAME,
  RequestDurations,
} from "../../server/metrics/request-durations.ts";

/** The observations both histograms get: every bucket edge, values between, and odd labels. */
const OBSERVATIONS: [method: string | undefined, route: string, status: number, seconds: number][] = [
  ["GET", "(page cache)", 200, 0.0001],
  ["GET", "(page cache)", 200, 0.0005],
  ["GET", "(page cache)", 304, 0.0007],
  ["HEAD", "(page cache)", 200, 0.002],
  ["GET", "/projects/:slug", 200, 0.012],
  ["GET", "/projects/:slug", 404, 0.3],
  ["POST", "/admin/media", 201, 2.5],
  ["POST", "/admin/media", 413, 12],
  ["PROPFIND", "(other)", 405, 0.001],
  [undefined, "(other)", 500, 0.05],
  ["DELETE", 'a "quoted" \\ route\nwith a newline', 204, 10],
  // Back to a route seen before, after others.
  ["GET", "(page cache)", 200, 0.004],
];

function expectedStatusLabel(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

/** What prom-client's own Histogram renders for the same observations. */
async function renderedByPromClient(): Promise<string> {
  const registry = new Registry();
  const histogram = new Histogram({
    name: REQUEST_DURATIONS_NAME,
    help: REQUEST_DURATIONS_HELP,
    labelNames: ["method", "route", "status"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const known = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
  for (const [method, route, status, seconds] of OBSERVATIONS) {
    const verb = method !== undefined && known.has(method) ? method : "OTHER";
    histogram.observe({ method: verb, route, status: expectedStatusLabel(status) }, seconds);
  }
  return registry.metrics();
}

function sortedLines(text: string): string[] {
  return text
    .split("\n")
    .filter((line) => line !== "")
    .sort();
}

describe("RequestDurations", () => {
  it("renders the lines prom-client's Histogram renders for the same observations", async () => {
    const durations = new RequestDurations();
    for (const [method, route, status, seconds] of OBSERVATIONS) durations.observe(method, route, status, seconds);
    expect(sortedLines(durations.render())).toEqual(sortedLines(await renderedByPromClient()));
  });

  it("counts an observation on a bucket's bound in that bucket, and one above every bound only in +Inf", () => {
    const durations = new RequestDurations();
    durations.observe("GET", "/", 200, 0.001);
    durations.observe("GET", "/", 200, 11);
    const text = durations.render();
    const labels = 'method="GET",route="/",status="2xx"';
    expect(text).toContain(`${REQUEST_DURATIONS_NAME}_bucket{le="0.0005",${labels}} 0`);
    expect(text).toContain(`${REQUEST_DURATIONS_NAME}_bucket{le="0.001",${labels}} 1`);
    expect(text).toContain(`${REQUEST_DURATIONS_NAME}_bucket{le="10",${labels}} 1`);
    expect(text).toContain(`${REQUEST_DURATIONS_NAME}_bucket{le="+Inf",${labels}} 2`);
    expect(text).toContain(`${REQUEST_DURATIONS_NAME}_sum{${labels}} 11.001`);
    expect(text).toContain(`${REQUEST_DURATIONS_NAME}_count{${labels}} 2`);
  });

  it("labels a status outside 1xx–5xx as other, so a broken status cannot grow the series", () => {
    const durations = new RequestDurations();
    durations.observe("GET", "/", 0, 0.001);
    durations.observe("GET", "/", 600, 0.001);
    expect(durations.render()).toContain(`${REQUEST_DURATIONS_NAME}_count{method="GET",route="/",status="other"} 2`);
  });
});
