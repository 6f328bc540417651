import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SiteWithAccounts, startSiteWithAccounts } from "../helpers/accounts.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { freePort } from "../helpers/free-port.ts";
import { withServer } from "../helpers/server.ts";
import { header, request } from "./client.ts";

/**
 * GET /metrics (server/metrics/) on the real server: guarded by METRICS_TOKEN, valid
 * Prometheus text, request counts labelled by route pattern (never the raw path), page
 * cache hits counted, and the database gauges read at scrape time.
 */

const TOKEN = "metrics-token-0123456789abcdef";
const CHAPTER = "first-steps";
/** A cookie named like the session's: the page cache neither answers nor keeps these requests. */
const UNCACHED = { Cookie: "bastion_probe=1" };

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const METRIC_NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
const SAMPLE_LINE = new RegExp(`^(${METRIC_NAME})(?:\\{(.*)\\})? (\\S+)(?: \\d+)?$`);
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Parses the text exposition format; fails the test on any line that is not valid. */
function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    if (line.startsWith("#")) {
      expect(line).toMatch(
        new RegExp(`^# (HELP ${METRIC_NAME} .*|TYPE ${METRIC_NAME} (counter|gauge|histogram|summary|untyped))$`),
      );
      continue;
    }
    const match = SAMPLE_LINE.exec(line);
    expect(match, `not a Prometheus sample line: ${line}`).not.toBeNull();
    const [, name, labelText = "", value] = match as RegExpExecArray;
    const labels = Object.fromEntries([...labelText.matchAll(LABEL)].map(([, key, text]) => [key, text]));
    // Prometheus reads values as Go's ParseFloat does: NaN and Inf in any case.
    const special: Record<string, number> = { nan: Number.NaN, "+inf": Infinity, inf: Infinity, "-inf": -Infinity };
    const number = special[(value as string).toLowerCase()] ?? Number(value);
    expect(Number.isNaN(number) && (value as string).toLowerCase() !== "nan", `not a number: ${line}`).toBe(false);
    samples.push({ name: name as string, labels, value: number });
  }
  return samples;
}

function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find(
    (sample) => sample.name === name && Object.entries(labels).every(([key, text]) => sample.labels[key] === text),
  )?.value;
}

describe.each(TEST_DIALECTS)("GET /metrics (%s)", (dialect) => {
  let site: SiteWithAccounts;
  let base: string;

  const scrape = async (): Promise<Sample[]> => {
    const response = await request(`${base}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    return parseMetrics(response.text());
  };
  const requestCount = async (route: string, status = "2xx") =>
    value(await scrape(), "bastion_http_request_duration_seconds_count", { method: "GET", route, status }) ?? 0;

  beforeAll(async () => {
    site = await startSiteWithAccounts({
      dialect,
      accounts: [],
      server: { env: { METRICS_TOKEN: TOKEN } },
      seed: async ({ db }) => {
        await db
          .insertInto("chapters")
          .values({ id: randomUUID(), slug: CHAPTER, title: "First steps", number: 1, order_index: 0, published: true })
          .execute();
      },
    });
    base = site.server.url;
  });
  afterAll(() => site?.stop());

  it("refuses a scrape without the token, or with a wrong one", async () => {
    const without = await request(`${base}/metrics`);
    expect(without.status).toBe(401);
    expect(header(without, "www-authenticate")).toBe('Bearer realm="metrics"');
    expect(without.text()).not.toContain("bastion_");
    const wrong = await request(`${base}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.status).toBe(401);
    const basic = await request(`${base}/metrics`, { headers: { Authorization: `Basic ${TOKEN}` } });
    expect(basic.status).toBe(401);
  });

  it("answers the token with Prometheus text: process metrics and the database's gauges", async () => {
    const response = await request(`${base}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    expect(header(response, "content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(header(response, "cache-control")).toBe("no-store");
    const samples = parseMetrics(response.text());
    expect(value(samples, "process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(value(samples, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
    expect(value(samples, "bastion_newsletter_active_subscribers")).toBe(0);
    expect(value(samples, "bastion_sms_outbox_messages", { status: "pending" })).toBe(0);
    if (dialect === "postgres") {
      expect(value(samples, "bastion_db_pool_connections", { state: "total" })).toBeGreaterThanOrEqual(1);
      expect(value(samples, "bastion_db_pool_max_connections")).toBe(10);
    } else {
      expect(value(samples, "bastion_db_pool_connections", { state: "total" })).toBeUndefined();
    }
  });

  it("counts requests under their route pattern, never their path", async () => {
    const before = await requestCount("/projects/:slug");
    for (let index = 0; index < 2; index += 1) {
      expect((await request(`${base}/projects/${CHAPTER}`, { headers: UNCACHED })).status).toBe(200);
    }
    expect(await requestCount("/projects/:slug")).toBe(before + 2);
    const text = (await request(`${base}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).text();
    expect(text).not.toContain(CHAPTER);
    expect(await requestCount("/healthz")).toBe(0);
    expect((await request(`${base}/healthz`)).status).toBe(200);
    expect(await requestCount("/healthz")).toBe(1);
  });

  it("counts page cache hits under one label of their own", async () => {
    await request(`${base}/projects`);
    const before = await requestCount("(page cache)");
    const hit = await request(`${base}/projects`);
    expect(header(hit, "x-page-cache")).toBe("hit");
    expect(await requestCount("(page cache)")).toBe(before + 1);
  });

  it("reads the email outbox at scrape time: a queued email shows", async () => {
    const outbox = (samples: Sample[]) =>
      samples.filter((sample) => sample.name === "bastion_email_outbox_messages").reduce((sum, s) => sum + s.value, 0);
    const before = outbox(await scrape());
    const subscribed = await fetch(`${base}/api/newsletter/subscribe`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: base },
      body: JSON.stringify({ email: "reader@example.com" }),
    });
    expect(subscribed.status).toBe(200);
    expect(outbox(await scrape())).toBe(before + 1);
  });
});

describe("where the metrics are served", () => {
  it("has no /metrics without METRICS_TOKEN or METRICS_PORT", async () => {
    await withServer({}, async (server) => {
      expect((await request(`${server.url}/metrics`)).status).toBe(404);
    });
  });

  it("serves them alone on METRICS_PORT, and not on the site's port", async () => {
    const port = await freePort();
    await withServer({ env: { METRICS_PORT: String(port) } }, async (server) => {
      expect((await request(`${server.url}/metrics`)).status).toBe(404);
      const metrics = await request(`http://127.0.0.1:${port}/metrics`);
      expect(metrics.status).toBe(200);
      expect(value(parseMetrics(metrics.text()), "process_resident_memory_bytes")).toBeGreaterThan(0);
      expect((await request(`http://127.0.0.1:${port}/`)).status).toBe(404);
    });
  });
});
