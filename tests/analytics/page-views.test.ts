import { Agent, type ClientRequest, request as httpRequest } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import express from "express";
import { type Kysely, sql } from "kysely";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { utcDay } from "../../server/analytics/days.ts";
import { MAX_PATH_LENGTH } from "../../server/analytics/page-view-requests.ts";
import { createPageViewCounter, type PageViewCounter } from "../../server/analytics/page-views.ts";
import { type DatabaseHandle, openDatabase } from "../../server/db/connection.ts";
import { migrateToLatest } from "../../server/db/migrate.ts";
import type { Database } from "../../server/db/schema.ts";
import { createLogger } from "../../server/logger.ts";
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from "../helpers/databases.ts";

const logger = createLogger({ level: "silent" });

const BROWSER_UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";
const BOT_UA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
/** What a browser sends when it loads a page. */
const DOCUMENT_HEADERS = {
  "user-agent": BROWSER_UA,
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
};
/** What React Router's client sends for a navigation (fetch of `<path>.data`). */
const DATA_HEADERS = { "user-agent": BROWSER_UA, accept: "*/*" };

/** Pages the stand-in for the React Router handler knows; everything else is its 404 page. */
const PAGES = new Set([
  "/",
  "/blog",
  "/about",
  "/resources",
  "/newsletter/unsubscribe",
  "/admin",
  "/admin/resources",
  "/auth",
]);

/** The page a path shows, matched as the router matches it: percent-escapes decoded, letter case ignored. */
function routedPage(page: string): string {
  try {
    return decodeURI(page).toLowerCase();
  } catch {
    return page;
  }
}

/**
 * An Express app shaped like server/http/app.ts, with the counter observing every request
 * first (health check and assets included), as the server's listener does, and a stand-in for
 * the React Router handler: documents as HTML, `.data` requests as turbo-stream, 404 for
 * unknown pages, 202 for a redirected data request as React Router answers.
 */
function createSite(counter: PageViewCounter): express.Express {
  const app = express();
  app.use((req, res, next) => {
    counter.observe(req, res);
    next();
  });
  app.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  app.get("/assets/app.js", (_req, res) => {
    res.type("text/javascript").send("export {};");
  });
  app.get("/robots.txt", (_req, res) => {
    res.type("text/plain").send("User-agent: *\n");
  });
  app.get("/api/feed", (_req, res) => {
    res.json([]);
  });
  app.use((req, res) => {
    const pathname = req.path;
    const isData = pathname.endsWith(".data");
    let page = isData ? pathname.replace(/(\/_|\/_root)?\.data$/, "") : pathname;
    if (page === "") page = "/";
    if (page.length > 1) page = page.replace(/\/+$/, "");
    const routed = routedPage(page);
    const known = PAGES.has(routed) || routed.startsWith("/projects/");
    if (routed === "/old") {
      if (isData) res.status(202).type("text/x-script").send("redirect");
      else res.redirect(302, "/blog");
      return;
    }
    const status = known ? 200 : 404;
    if (isData) res.status(status).type("text/x-script").send("[]");
    else res.status(status).type("html").send("<!doctype html><title>page</title>");
  });
  return app;
}

interface Site {
  url: string;
  close(): Promise<void>;
}

async function serve(app: express.Express): Promise<Site> {
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends a node:http request (fetch offers neither a path as spelled nor an agent of one's own) and reads its status. */
function statusOf(outgoing: ClientRequest): Promise<number> {
  return new Promise((resolve, reject) => {
    outgoing.once("response", (response) => {
      response.resume();
      response.once("end", () => resolve(response.statusCode ?? 0));
    });
    outgoing.once("error", reject);
    outgoing.end();
  });
}

/** Runs the requests a few at a time, as several visitors would. */
async function inBatches<T>(items: T[], run: (item: T) => Promise<unknown>, size = 25): Promise<void> {
  for (let start = 0; start < items.length; start += size) await Promise.all(items.slice(start, start + size).map(run));
}

async function rows(db: Kysely<Database>) {
  return db.selectFrom("page_views").select(["day", "path", "views"]).orderBy("day").orderBy("path").execute();
}

describe.each(TEST_DIALECTS)("public page views counter on %s", (dialect) => {
  let testDb: TestDatabase;
  let handle: DatabaseHandle;
  const cleanups: Array<() => Promise<void>> = [];

  /** A counter (timer effectively off unless asked) behind a real HTTP server. */
  async function startSite(
    options: { db?: Kysely<Database>; flushIntervalMs?: number; now?: () => Date } = {},
  ): Promise<{ url: string; counter: PageViewCounter; get: (path: string, headers?: HeadersInit) => Promise<number> }> {
    const counter = createPageViewCounter({
      db: options.db ?? handle.db,
      logger,
      flushIntervalMs: options.flushIntervalMs ?? 3_600_000,
      now: options.now,
    });
    const site = await serve(createSite(counter));
    cleanups.push(async () => {
      await site.close();
      await counter.stop();
    });
    const get = async (path: string, headers: HeadersInit = DOCUMENT_HEADERS) => {
      const response = await fetch(`${site.url}${path}`, { headers, redirect: "manual" });
      await response.arrayBuffer();
      return response.status;
    };
    return { url: site.url, counter, get };
  }

  beforeAll(async () => {
    testDb = await createTestDatabase(dialect);
    handle = openDatabase(testDb.config);
    await migrateToLatest(handle.db, handle.dialect);
  });

  beforeEach(async () => {
    await handle.db.deleteFrom("page_views").execute();
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  afterAll(async () => {
    await handle?.close();
    await testDb?.drop();
  });

  it("counts document loads of / and /blog per UTC day, without query string or trailing slash", async () => {
    const { counter, get } = await startSite();
    expect(await get("/")).toBe(200);
    expect(await get("/blog")).toBe(200);
    expect(await get("/blog/?utm_source=newsletter")).toBe(200);
    expect(await get("/blog?category=AWS")).toBe(200);
    // Media types are case-insensitive.
    expect(await get("/", { ...DOCUMENT_HEADERS, accept: "TEXT/HTML" })).toBe(200);
    // HTML need not be the first type asked for.
    expect(await get("/", { ...DOCUMENT_HEADERS, accept: "application/xhtml+xml,text/html;q=0.9" })).toBe(200);
    await counter.flush();

    const today = utcDay(new Date());
    expect(await rows(handle.db)).toEqual([
      { day: today, path: "/", views: 3 },
      { day: today, path: "/blog", views: 3 },
    ]);
  });

  it("counts every letter case of a path under its lower-case spelling, and cuts long paths", async () => {
    const { counter, get } = await startSite();
    const slug = "a".repeat(MAX_PATH_LENGTH * 2);
    expect(await get("/projects/Intro-To-AWS")).toBe(200);
    expect(await get("/projects/intro-to-aws")).toBe(200);
    expect(await get("/projects/%49ntro-to-aws")).toBe(200);
    expect(await get(`/projects/${slug}`)).toBe(200);
    await counter.flush();

    const counted = await rows(handle.db);
    expect(counted.filter((row) => row.path.startsWith("/projects/i"))).toEqual([
      { day: utcDay(new Date()), path: "/projects/intro-to-aws", views: 3 },
    ]);
    const long = counted.find((row) => row.path.startsWith("/projects/a"));
    expect(long?.path).toHaveLength(MAX_PATH_LENGTH);
  });

  it("does not count private pages spelled with percent-escaped capitals, which the router still matches", async () => {
    const { counter, get } = await startSite();
    const statuses = [
      await get("/%41uth"),
      await get("/%41UTH.data", DATA_HEADERS),
      await get("/%41dmin/Resources"),
      await get("/ADMIN"),
    ];
    expect(statuses).toEqual([200, 200, 200, 200]);
    // A public page so spelled is counted under its one spelling.
    expect(await get("/%4Eewsletter/unsubscribe")).toBe(200);
    expect(await get("/newsletter/unsubscribe")).toBe(200);
    await counter.flush();
    expect(await rows(handle.db)).toEqual([{ day: utcDay(new Date()), path: "/newsletter/unsubscribe", views: 2 }]);
  });

  it("counts a path with dot segments under the page they resolve to, as the router's URL parser does", async () => {
    const { url, counter } = await startSite();
    // Sent as spelled: fetch and a URL given to http.request would resolve the segments first.
    const getAsSpelled = (path: string) =>
      statusOf(httpRequest({ host: "127.0.0.1", port: new URL(url).port, path, headers: DOCUMENT_HEADERS }));
    expect(await getAsSpelled("/projects/%2e%2e")).toBe(200);
    expect(await getAsSpelled("/projects/intro/%2E%2E/./notes/")).toBe(200);
    await counter.flush();

    const today = utcDay(new Date());
    expect(await rows(handle.db)).toEqual([
      { day: today, path: "/", views: 1 },
      { day: today, path: "/projects/notes", views: 1 },
    ]);
  });

  it("counts React Router client navigations (.data requests) under the page path", async () => {
    const { counter, get } = await startSite();
    expect(await get("/blog.data", DATA_HEADERS)).toBe(200);
    expect(await get("/blog/_.data", DATA_HEADERS)).toBe(200);
    expect(await get("/_.data", DATA_HEADERS)).toBe(200);
    expect(await get("/_root.data", DATA_HEADERS)).toBe(200);
    expect(await get("/about.data?_routes=routes%2Fpublic%2Fabout", DATA_HEADERS)).toBe(200);
    // Navigating from the home page to /resources: the Referer is the page being left.
    expect(await get("/resources.data", { ...DATA_HEADERS, referer: "http://127.0.0.1/" })).toBe(200);
    await counter.flush();

    const today = utcDay(new Date());
    expect(await rows(handle.db)).toEqual([
      { day: today, path: "/", views: 2 },
      { day: today, path: "/about", views: 1 },
      { day: today, path: "/blog", views: 2 },
      { day: today, path: "/resources", views: 1 },
    ]);
  });

  it("does not count the revalidation of the page already shown (after a form submission)", async () => {
    const { counter, get } = await startSite();
    expect(await get("/_.data", { ...DATA_HEADERS, referer: "http://127.0.0.1/" })).toBe(200);
    expect(
      await get("/blog.data?category=AWS", { ...DATA_HEADERS, referer: "http://127.0.0.1/blog?category=AWS" }),
    ).toBe(200);
    // Another query of the same page is another view.
    expect(
      await get("/blog.data?category=Career", { ...DATA_HEADERS, referer: "http://127.0.0.1/blog?category=AWS" }),
    ).toBe(200);
    await counter.flush();
    expect(await rows(handle.db)).toEqual([{ day: utcDay(new Date()), path: "/blog", views: 1 }]);
  });

  it("does not count bots, private areas, assets, the health check, HEAD, POST, 404s, redirects or prefetches", async () => {
    const { url, counter, get } = await startSite();
    const statuses = {
      bot: await get("/", { ...DOCUMENT_HEADERS, "user-agent": BOT_UA }),
      botData: await get("/blog.data", { ...DATA_HEADERS, "user-agent": BOT_UA }),
      curl: await get("/", { accept: "text/html", "user-agent": "curl/8.5.0" }),
      noUserAgent: await get("/", { accept: "text/html", "user-agent": "" }),
      admin: await get("/admin"),
      adminPage: await get("/admin/resources"),
      adminData: await get("/admin/resources.data", DATA_HEADERS),
      auth: await get("/auth"),
      authData: await get("/auth.data", DATA_HEADERS),
      api: await get("/api/feed"),
      asset: await get("/assets/app.js"),
      health: await get("/healthz"),
      notFound: await get("/no-such-page"),
      notFoundData: await get("/no-such-page.data", DATA_HEADERS),
      redirect: await get("/old"),
      redirectData: await get("/old.data", DATA_HEADERS),
      notHtml: await get("/robots.txt"),
      jsonAccept: await get("/blog", { ...DATA_HEADERS, accept: "application/json" }),
      secPurpose: await get("/blog", { ...DOCUMENT_HEADERS, "sec-purpose": "prefetch" }),
      secPurposeData: await get("/blog.data", { ...DATA_HEADERS, "sec-purpose": "prefetch" }),
      prerender: await get("/blog", { ...DOCUMENT_HEADERS, "sec-purpose": "prefetch;prerender" }),
      purpose: await get("/blog", { ...DOCUMENT_HEADERS, purpose: "prefetch" }),
      xPurpose: await get("/blog", { ...DOCUMENT_HEADERS, "x-purpose": "preview" }),
      xMoz: await get("/blog", { ...DOCUMENT_HEADERS, "x-moz": "prefetch" }),
    };
    const head = await fetch(`${url}/blog`, { method: "HEAD", headers: DOCUMENT_HEADERS });
    const post = await fetch(`${url}/blog`, { method: "POST", headers: DOCUMENT_HEADERS, body: "email=a%40b.c" });
    await post.arrayBuffer();
    const postData = await fetch(`${url}/blog.data`, { method: "POST", headers: DATA_HEADERS, body: "x=1" });
    await postData.arrayBuffer();

    // The requests themselves succeeded where a page exists: only the counting differs.
    expect(statuses).toMatchObject({ bot: 200, admin: 200, auth: 200, asset: 200, health: 200, secPurpose: 200 });
    expect(statuses).toMatchObject({ notFound: 404, notFoundData: 404, redirect: 302, redirectData: 202 });
    expect([head.status, post.status, postData.status]).toEqual([200, 200, 200]);

    await counter.flush();
    expect(await rows(handle.db)).toEqual([]);

    // The same counter still counts an ordinary view.
    expect(await get("/about")).toBe(200);
    await counter.flush();
    expect(await rows(handle.db)).toEqual([{ day: utcDay(new Date()), path: "/about", views: 1 }]);
  });

  it("does not count chapter previews (?preview), which only editors and admins are shown, drafts included", async () => {
    const { counter, get } = await startSite();
    expect(await get("/projects/draft-chapter?preview")).toBe(200);
    expect(await get("/projects/draft-chapter?preview=")).toBe(200);
    expect(await get("/projects/intro?utm_source=x&preview")).toBe(200);
    expect(await get("/projects/draft-chapter.data?preview&_routes=routes%2Fpublic%2Fchapter", DATA_HEADERS)).toBe(200);
    // A parameter that merely contains the word is an ordinary view.
    expect(await get("/projects/intro?previewed=1")).toBe(200);
    await counter.flush();
    expect(await rows(handle.db)).toEqual([{ day: utcDay(new Date()), path: "/projects/intro", views: 1 }]);
  });

  it("judges each request's User-Agent on its own when one connection carries several", async () => {
    const { url, counter } = await startSite();
    // One keep-alive connection, as a reverse proxy's to the server may be.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const connections = new Set<Socket>();
    const getOnAgent = (userAgent: string) => {
      const outgoing = httpRequest(`${url}/about`, {
        agent,
        headers: { ...DOCUMENT_HEADERS, "user-agent": userAgent },
      });
      outgoing.once("socket", (socket) => connections.add(socket));
      return statusOf(outgoing);
    };
    try {
      for (const userAgent of [BOT_UA, BROWSER_UA, BROWSER_UA, BOT_UA, BROWSER_UA, BOT_UA]) {
        expect(await getOnAgent(userAgent)).toBe(200);
      }
    } finally {
      agent.destroy();
    }
    expect(connections.size).toBe(1);
    await counter.flush();
    expect(await rows(handle.db)).toEqual([{ day: utcDay(new Date()), path: "/about", views: 3 }]);
  });

  it("adds up counts from several instances sharing the database", async () => {
    // Two "instances": their own database connections, counters and HTTP servers.
    const second = openDatabase(testDb.config);
    cleanups.push(() => second.close());
    const one = await startSite();
    const two = await startSite({ db: second.db });

    for (let index = 0; index < 3; index++) await one.get("/blog");
    for (let index = 0; index < 4; index++) await two.get("/blog");
    await two.get("/about");
    await Promise.all([one.counter.flush(), two.counter.flush()]);

    // More views later: added to the stored counts, not written over them.
    await one.get("/blog");
    await two.get("/blog");
    await Promise.all([two.counter.flush(), one.counter.flush()]);

    const today = utcDay(new Date());
    expect(await rows(handle.db)).toEqual([
      { day: today, path: "/about", views: 1 },
      { day: today, path: "/blog", views: 9 },
    ]);
  });

  it("writes a batch larger than one statement in one go", async () => {
    const { counter, get } = await startSite();
    const paths = Array.from({ length: 620 }, (_, index) => `/projects/chapter-${index}`);
    await inBatches(paths, (path) => get(path));
    await get("/projects/chapter-0");
    await counter.flush();

    const stored = await rows(handle.db);
    expect(stored).toHaveLength(620);
    expect(stored.find((row) => row.path === "/projects/chapter-0")?.views).toBe(2);
    expect(stored.reduce((total, row) => total + row.views, 0)).toBe(621);
  });

  // Registered on PostgreSQL only: one SQLite process has one connection (see the note above).
  if (dialect === "postgres")
    it("adds up large batches flushed at the same moment by several instances (no lost update, no deadlock)", async () => {
      const instances = await Promise.all(
        [0, 1, 2].map(async () => {
          const own = openDatabase(testDb.config);
          cleanups.push(() => own.close());
          return startSite({ db: own.db });
        }),
      );
      const paths = Array.from({ length: 550 }, (_, index) => `/projects/p-${index}`);
      for (const instance of instances) {
        // Each instance sees the pages in another order.
        await inBatches([...paths].reverse(), (path) => instance.get(path));
        await inBatches(paths.slice(0, 10), (path) => instance.get(path));
      }
      for (let round = 0; round < 2; round++) {
        await Promise.all(instances.map((instance) => instance.counter.flush()));
        if (round === 0) for (const instance of instances) await instance.get("/projects/p-0");
      }

      const stored = await rows(handle.db);
      expect(stored).toHaveLength(550);
      expect(stored.find((row) => row.path === "/projects/p-0")?.views).toBe(3 * 2 + 3);
      expect(stored.find((row) => row.path === "/projects/p-9")?.views).toBe(3 * 2);
      expect(stored.find((row) => row.path === "/projects/p-549")?.views).toBe(3);
    });

  it("keeps the counts when the database refuses them, and writes them at the next flush", async () => {
    const { counter, get } = await startSite();
    await get("/");
    await get("/blog");
    await sql`alter table page_views rename to page_views_away`.execute(handle.db);
    try {
      await expect(counter.flush()).rejects.toThrow();
      await get("/blog");
    } finally {
      await sql`alter table page_views_away rename to page_views`.execute(handle.db);
    }
    await counter.flush();
    const today = utcDay(new Date());
    expect(await rows(handle.db)).toEqual([
      { day: today, path: "/", views: 1 },
      { day: today, path: "/blog", views: 2 },
    ]);
  });

  it("loses no view when flushes overlap with new requests", async () => {
    const { counter, get } = await startSite();
    const requests: Array<Promise<number>> = [];
    const flushes: Array<Promise<void>> = [];
    for (let index = 0; index < 40; index++) {
      requests.push(get(index % 2 === 0 ? "/" : "/blog"));
      if (index % 5 === 0) flushes.push(counter.flush());
    }
    await Promise.all(requests);
    await Promise.all(flushes);
    await counter.flush();
    const stored = await rows(handle.db);
    expect(stored.map((row) => [row.path, row.views])).toEqual([
      ["/", 20],
      ["/blog", 20],
    ]);
  });

  it("writes on its own every flushIntervalMs, and on stop()", async () => {
    const timed = await startSite({ flushIntervalMs: 50 });
    await timed.get("/");
    await expect
      .poll(() => rows(handle.db), { timeout: 5_000, interval: 25 })
      .toEqual([{ day: utcDay(new Date()), path: "/", views: 1 }]);

    const stopped = await startSite();
    await stopped.get("/about");
    expect(await rows(handle.db)).toHaveLength(1);
    await stopped.counter.stop();
    expect((await rows(handle.db)).map((row) => row.path)).toEqual(["/", "/about"]);
  });

  it("files each view under the UTC day it happened", async () => {
    let clock = new Date("2024-02-29T23:59:59.999Z");
    const { counter, get } = await startSite({ now: () => clock });
    await get("/");
    await get("/");
    clock = new Date("2024-03-01T00:00:00.000Z");
    await get("/");
    await counter.flush();
    expect(await rows(handle.db)).toEqual([
      { day: "2024-02-29", path: "/", views: 2 },
      { day: "2024-03-01", path: "/", views: 1 },
    ]);
  });

  it("stores no IP address, user agent or other visitor data: page_views is (day, path, views)", async () => {
    const { counter, get } = await startSite();
    await get("/blog", { ...DOCUMENT_HEADERS, "x-forwarded-for": "203.0.113.7", cookie: "session=secret" });
    await counter.flush();

    const columns =
      dialect === "postgres"
        ? (
            await sql<{ name: string }>`
              select column_name as name from information_schema.columns
              where table_schema = current_schema() and table_name = 'page_views'`.execute(handle.db)
          ).rows.map((row) => row.name)
        : (await sql<{ name: string }>`select name from pragma_table_info('page_views')`.execute(handle.db)).rows.map(
            (row) => row.name,
          );
    expect(columns.sort()).toEqual(["day", "path", "views"]);

    const stored = JSON.stringify(await handle.db.selectFrom("page_views").selectAll().execute());
    for (const secret of ["127.0.0.1", "203.0.113.7", "Mozilla", "Chrome", "session", "secret"]) {
      expect(stored).not.toContain(secret);
    }
  });
});
