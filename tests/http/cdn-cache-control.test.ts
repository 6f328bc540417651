import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRIVATE_NO_STORE } from "../../server/http/cache-policy.ts";
import { PAGE_CACHE_CONTROL } from "../../server/http/page-cache/index.ts";
import { type SiteWithAccounts, signIn, startSiteWithAccounts } from "../helpers/accounts.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { header, type RawResponse, request } from "./client.ts";

/**
 * What a CDN in front of the built server may keep: the public pages answered to an
 * anonymous visitor (public, s-maxage with stale-while-revalidate, an ETag, Vary on
 * the encoding only), and nothing else. A page rendered for a visitor with a session
 * cookie, admin and sign-in pages, data requests, query strings, not-found pages and
 * say `private, no-store`; the API's answers (Better Auth's included) `no-store`.
 */

const EDITOR = { email: "cdn.editor@example.com", name: "Cdn Editor", role: "editor" as const };
const PUBLIC_PAGES = ["/", "/projects", "/projects/cdn-chapter", "/blog", "/resources", "/about", "/sitemap.xml"];

function expectNeverShared(response: RawResponse, what: string) {
  const cacheControl = header(response, "cache-control") ?? "";
  expect(cacheControl, what).toMatch(/\bno-store\b/);
  expect(cacheControl, what).not.toMatch(/\bpublic\b|s-maxage/);
}

describe.each(TEST_DIALECTS)("Cache-Control for a CDN (%s)", (dialect) => {
  let site: SiteWithAccounts;
  let base: string;
  let editor: string;

  beforeAll(async () => {
    site = await startSiteWithAccounts({
      dialect,
      accounts: [EDITOR],
      seed: async ({ db }) => {
        await db
          .insertInto("chapters")
          .values({
            id: "chapter-cdn",
            slug: "cdn-chapter",
            title: "Edges",
            number: 1,
            order_index: 0,
            published: true,
          })
          .execute();
      },
    });
    base = site.server.url;
    editor = await signIn(base, EDITOR.email);
  });

  afterAll(async () => {
    await site?.stop();
  });

  it("lets a CDN keep the public pages answered to anonymous visitors, rendered or from the page cache", async () => {
    for (const path of PUBLIC_PAGES) {
      for (const answer of ["miss", "hit"]) {
        const response = await request(`${base}${path}`, { headers: { "Accept-Encoding": "gzip" } });
        expect(response.status, path).toBe(200);
        expect(header(response, "x-page-cache"), path).toBe(answer);
        expect(header(response, "cache-control"), path).toBe(PAGE_CACHE_CONTROL);
        expect(header(response, "etag"), path).toMatch(/^"[\w-]+"$/);
        expect(header(response, "vary"), path).toBe("Accept-Encoding");
      }
    }
    const page = await request(`${base}/about`);
    const revalidated = await request(`${base}/about`, { headers: { "If-None-Match": header(page, "etag") ?? "" } });
    expect(revalidated.status).toBe(304);
    expect(header(revalidated, "cache-control")).toBe(PAGE_CACHE_CONTROL);
  });

  it("marks the same pages private, no-store for a visitor with a session cookie", async () => {
    for (const cookie of [editor, "bastion.session_token=made-up"]) {
      for (const path of PUBLIC_PAGES.filter((page) => page !== "/sitemap.xml")) {
        const response = await request(`${base}${path}`, { headers: { Cookie: cookie } });
        expect(response.status, path).toBe(200);
        expect(header(response, "cache-control"), path).toBe(PRIVATE_NO_STORE);
        expect(header(response, "etag"), path).toBeUndefined();
      }
    }
  });

  it("marks admin, sign-in, data, query-string, not-found and newsletter-link answers private, no-store", async () => {
    const answers: Array<[string, RawResponse]> = [
      ["/admin signed in", await request(`${base}/admin`, { headers: { Cookie: editor } })],
      ["/admin/tips signed in", await request(`${base}/admin/tips`, { headers: { Cookie: editor } })],
      ["/admin anonymous", await request(`${base}/admin`)],
      ["/auth", await request(`${base}/auth`)],
      ["/blog.data", await request(`${base}/blog.data`)],
      ["/?utm_source=x", await request(`${base}/?utm_source=x`)],
      ["/no-such-page", await request(`${base}/no-such-page`)],
      ["/newsletter/confirm?token=x", await request(`${base}/newsletter/confirm?token=x`)],
    ];
    for (const [what, response] of answers) {
      expect(header(response, "cache-control"), what).toBe(PRIVATE_NO_STORE);
      expect(header(response, "x-page-cache"), what).toBeUndefined();
    }
    expect(answers.find(([what]) => what === "/no-such-page")?.[1].status).toBe(404);
  });

  it("never lets a shared cache keep the API's answers", async () => {
    expectNeverShared(await request(`${base}/api/media`, { headers: { Cookie: editor } }), "GET /api/media");
    expectNeverShared(await request(`${base}/api/me`), "GET /api/me without a token");
    expectNeverShared(await request(`${base}/healthz`), "GET /healthz");
    const session = await request(`${base}/api/auth/get-session`, { headers: { Cookie: editor } });
    expect(session.status).toBe(200);
    expectNeverShared(session, "GET /api/auth/get-session");
  });

  it("keeps what static files and public resource routes declare themselves", async () => {
    const html = (await request(`${base}/`)).text();
    const asset = /(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/.exec(html)?.[1];
    expect(asset).toBeDefined();
    expect(header(await request(`${base}${asset}`), "cache-control")).toContain("immutable");
    expect(header(await request(`${base}/.well-known/jwks.json`), "cache-control")).toMatch(/^public, max-age=\d+/);
  });
});
