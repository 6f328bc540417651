import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { utcDay } from "../../server/analytics/days.ts";
import { loadConfig } from "../../server/config.ts";
import { openDatabase } from "../../server/db/connection.ts";
import { type LogLine, type RunningServer, startServer } from "../helpers/server.ts";
import { header, type RawResponse, request } from "./client.ts";

/**
 * The page cache's fast path (server/http/cached-pages.ts): hits answered before Express
 * from their precomputed responses must look exactly like the rendered answer's baseline,
 * and still be logged and counted. The server trusts a proxy, for the HSTS checks.
 */

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
/** Headers of one response or connection, and the cache's own. */
const PER_RESPONSE = new Set([
  "date",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "etag",
  "x-page-cache",
  "x-request-id",
]);

let server: RunningServer;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "bastion-fast-path-"));
  server = await startServer({ dataDir, env: { TRUST_PROXY: "true" } });
});

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * Renders the page: it is stored with its compressed variants before this first answer
 * goes out, so every later request is a hit, taken by the fast path. Returns the
 * rendered answer and the number of requests made.
 */
async function warm(pagePath: string): Promise<RawResponse & { requests: number }> {
  const miss = await request(`${server.url}${pagePath}`);
  expect(header(miss, "x-page-cache"), pagePath).toBe("miss");
  return { ...miss, requests: 1 };
}

function withoutPerResponse(response: RawResponse): Record<string, unknown> {
  return Object.fromEntries(Object.entries(response.headers).filter(([name]) => !PER_RESPONSE.has(name)));
}

describe("page cache fast path on the built server", () => {
  it("answers a hit with the rendered answer's headers, the CSP allowing the body's scripts by hash", async () => {
    const miss = await warm("/resources");
    const hit = await request(`${server.url}/resources`);
    expect(header(hit, "x-page-cache")).toBe("hit");
    expect(hit.text()).toBe(miss.text());
    expect(withoutPerResponse(hit)).toEqual(withoutPerResponse(miss));
    expect(header(hit, "content-security-policy")).toMatch(/script-src 'self'( 'sha256-[^']+')+;/);
    expect(header(hit, "permissions-policy")).toMatch(/camera=\(\)/);
    expect(header(hit, "referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(header(hit, "content-length")).toBe(String(hit.body.length));
    expect(header(hit, "date")).toBeTruthy();

    const head = await request(`${server.url}/resources`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(withoutPerResponse(head)).toEqual(withoutPerResponse(miss));

    const revalidated = await request(`${server.url}/resources`, {
      headers: { "If-None-Match": header(hit, "etag") as string },
    });
    expect(revalidated.status).toBe(304);
    expect(header(revalidated, "content-security-policy")).toBe(header(miss, "content-security-policy"));
  });

  it("writes one request log line per hit", async () => {
    const { requests } = await warm("/about");
    const first = await request(`${server.url}/about`);
    await request(`${server.url}/about`);
    await request(`${server.url}/about`, { headers: { "If-None-Match": header(first, "etag") as string } });
    const isAboutLine = (line: LogLine) => (line.req as { path?: string } | undefined)?.path === "/about";
    await server.waitForLog((line) => isAboutLine(line) && (line.res as { status?: number }).status === 304);
    // The lines may arrive a little after their responses: counted once the last is in.
    const lines = server.logs().filter(isAboutLine).slice(requests);
    expect(lines.map((line) => (line.res as { status: number }).status)).toEqual([200, 200, 304]);
    for (const line of lines) {
      expect(line.level).toBe(30);
      expect((line.req as { method: string }).method).toBe("GET");
      expect(typeof line.durationMs).toBe("number");
      expect(line.msg).toBe(`GET /about ${(line.res as { status: number }).status}`);
    }
  });

  it("sends HSTS on a hit exactly when the request came over HTTPS through the trusted proxy", async () => {
    await warm("/projects");
    const overHttps = await request(`${server.url}/projects`, { headers: { "X-Forwarded-Proto": "https" } });
    expect(header(overHttps, "x-page-cache")).toBe("hit");
    expect(header(overHttps, "strict-transport-security")).toMatch(/max-age=31536000/);
    const firstHopHttps = await request(`${server.url}/projects`, { headers: { "X-Forwarded-Proto": "https, http" } });
    expect(header(firstHopHttps, "strict-transport-security")).toMatch(/max-age=31536000/);
    for (const proto of [undefined, "http", "http, https"]) {
      const headers: Record<string, string> = proto ? { "X-Forwarded-Proto": proto } : {};
      const plain = await request(`${server.url}/projects`, { headers });
      expect(header(plain, "x-page-cache"), proto).toBe("hit");
      expect(header(plain, "strict-transport-security"), proto).toBeUndefined();
    }
  });

  // Last: stopping the server writes the pending counts.
  it("counts page views of hits (browsers' document loads only)", async () => {
    await warm("/blog");
    await warm("/");
    const page = { "User-Agent": BROWSER, Accept: "text/html,application/xhtml+xml" };
    // Each page's views under its own path, whichever page a visitor loaded before.
    for (const pagePath of ["/blog", "/", "/blog", "/blog", "/"]) {
      const hit = await request(`${server.url}${pagePath}`, { headers: page });
      expect(header(hit, "x-page-cache"), pagePath).toBe("hit");
    }
    // Not views: a bot, a prefetch, a HEAD, a request that is no browser's document load.
    await request(`${server.url}/blog`, { headers: { ...page, "User-Agent": "Googlebot/2.1" } });
    await request(`${server.url}/blog`, { headers: { ...page, "Sec-Purpose": "prefetch" } });
    await request(`${server.url}/blog`, { method: "HEAD", headers: page });
    const etag = header(await request(`${server.url}/blog`), "etag") as string;
    // A view: a return visit revalidating the browser's copy (304).
    const revalidated = await request(`${server.url}/blog`, { headers: { ...page, "If-None-Match": etag } });
    expect(revalidated.status).toBe(304);

    expect(await server.stop()).toBe(0);
    const database = openDatabase(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "error" }).database);
    try {
      const rows = await database.db
        .selectFrom("page_views")
        .selectAll()
        .where("path", "in", ["/", "/blog"])
        .orderBy("path")
        .execute();
      expect(rows).toEqual([
        expect.objectContaining({ day: utcDay(new Date()), path: "/", views: 2 }),
        expect.objectContaining({ day: utcDay(new Date()), path: "/blog", views: 4 }),
      ]);
    } finally {
      await database.close();
    }
  });
});
