import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SiteWithAccounts, signIn, startSiteWithAccounts } from "../helpers/accounts.ts";
import { png } from "../media/images.ts";
import { header, type RawResponse, request } from "./client.ts";
import { upload } from "./media-client.ts";

/**
 * The security baseline on every class of response the server sends, not only on
 * rendered pages: cached pages and their 304s, JSON answers, hashed assets and public
 * files, media, feeds, error pages, refusals before the router (403, 413) and 405s.
 */

const ADMIN = { email: "hedda.headers@example.com", name: "Hedda Headers", role: "admin" as const };
let site: SiteWithAccounts;
const responses = new Map<string, RawResponse>();

beforeAll(async () => {
  site = await startSiteWithAccounts({ dialect: "sqlite", accounts: [ADMIN] });
  const base = site.server.url;
  const cookie = await signIn(base, ADMIN.email);
  const image = await upload(base, await png(32, 32), "pixel.png", { cookie });
  expect(image.status).toBe(201);

  const rendered = await request(`${base}/?render=headers`);
  const asset = /(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/.exec(rendered.text())?.[1];
  expect(asset).toBeTruthy();
  await request(`${base}/about`);
  const cached = await request(`${base}/about`);
  expect(header(cached, "x-page-cache")).toBe("hit");

  const classes: Record<string, Promise<RawResponse> | RawResponse> = {
    "rendered page": rendered,
    "cached page": cached,
    "304 of a cached page": request(`${base}/about`, {
      headers: { "If-None-Match": header(cached, "etag") as string },
    }),
    "signed-in page": request(`${base}/admin`, { headers: { Cookie: cookie } }),
    "JSON answer": request(`${base}/api/me`),
    "JSON refusal": request(`${base}/api/newsletter/subscribe`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    }),
    "405": request(`${base}/api/newsletter/subscribe`),
    "hashed asset": request(`${base}${asset}`),
    "public file": request(`${base}/favicon.ico`),
    media: request(`${base}${image.json.url}`),
    feed: request(`${base}/feed.xml`),
    sitemap: request(`${base}/sitemap.xml`),
    "not-found page": request(`${base}/no-such-page`),
    "cross-origin refusal": request(`${base}/auth`, {
      method: "POST",
      headers: { Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded" },
      body: "a=1",
    }),
    "body too large": request(`${base}/auth`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": String(2 * 1024 * 1024) },
      body: "a=1",
    }),
    "health check": request(`${base}/healthz`),
  };
  for (const [name, response] of Object.entries(classes)) responses.set(name, await response);
});

afterAll(async () => {
  await site?.stop();
});

describe("the security baseline on every response class", () => {
  it("answers each class as expected", () => {
    const statuses = Object.fromEntries([...responses].map(([name, response]) => [name, response.status]));
    expect(statuses).toMatchObject({
      "rendered page": 200,
      "cached page": 200,
      "304 of a cached page": 304,
      "signed-in page": 200,
      "JSON answer": 401,
      "JSON refusal": 400,
      "405": 405,
      "hashed asset": 200,
      "public file": 200,
      media: 200,
      feed: 200,
      sitemap: 200,
      "not-found page": 404,
      "cross-origin refusal": 403,
      "body too large": 413,
      "health check": 200,
    });
  });

  it("sends nosniff, the referrer and permissions policies, frame denial and no X-Powered-By on all", () => {
    for (const [name, response] of responses) {
      expect(header(response, "x-content-type-options"), name).toBe("nosniff");
      expect(header(response, "referrer-policy"), name).toBe("strict-origin-when-cross-origin");
      expect(header(response, "permissions-policy"), name).toMatch(/camera=\(\)/);
      expect(header(response, "x-frame-options"), name).toBe("DENY");
      expect(header(response, "x-powered-by"), name).toBeUndefined();
      expect(header(response, "x-request-id"), name).toMatch(/^[A-Za-z0-9._-]{1,64}$/);
    }
  });

  it("sends a CSP without unsafe-inline scripts, framing or plugins on all", () => {
    for (const [name, response] of responses) {
      const policy = header(response, "content-security-policy") ?? "";
      expect(policy, name).toMatch(/frame-ancestors 'none'/);
      expect(policy, name).toMatch(/object-src 'none'/);
      expect(policy, name).toMatch(/base-uri 'self'/);
      const scriptSrc = /script-src ([^;]*)/.exec(policy)?.[1] ?? "";
      expect(scriptSrc, name).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    }
  });

  it("keeps private answers out of shared caches", () => {
    for (const name of ["signed-in page", "JSON answer", "JSON refusal", "405"]) {
      const cacheControl = header(responses.get(name) as RawResponse, "cache-control") ?? "";
      expect(cacheControl, name).toMatch(/no-store|private/);
    }
  });
});
