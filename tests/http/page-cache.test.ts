import { createHash, randomUUID } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import compression from "compression";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../server/config.ts";
import { openDatabase } from "../../server/db/connection.ts";
import { serveCachedPagesFirst } from "../../server/http/cached-pages.ts";
import { createPageCache, PAGE_CACHE_CONTROL } from "../../server/http/page-cache/index.ts";
import { pageCacheKey } from "../../server/http/page-cache/rules.ts";
import { assignCspNonce, securityHeaders } from "../../server/http/security-headers.ts";
import { createLogger } from "../../server/logger.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";
import { header, type RawResponse, request } from "./client.ts";

/**
 * The rendered-page cache (server/http/page-cache/, docs/decisions/008-page-cache.md):
 * first in-process, wired as server/serve.ts wires it in front of a stand-in renderer,
 * for the rules; then on the built server, for the wiring (script hashes instead of nonces, 304, signed-in visitors,
 * invalidation by a content write).
 */

function cspNonce(response: RawResponse): string {
  const policy = header(response, "content-security-policy") ?? "";
  const nonces = [...policy.matchAll(/'nonce-([^']+)'/g)].map((match) => match[1]);
  expect(nonces, policy).toHaveLength(1);
  return nonces[0] as string;
}

/** Every nonce="…" attribute of the body; all must be the header's. */
function bodyNonces(html: string): Set<string> {
  return new Set([...html.matchAll(/\snonce="([^"]+)"/g)].map((match) => match[1] as string));
}

/**
 * A kept page's CSP allows exactly its inline scripts, by hash, and no nonce: neither in
 * the header nor in the body (a nonce served to everyone would be anyone's to reuse).
 */
function expectScriptsAllowedByHash(response: RawResponse, label = ""): void {
  const policy = header(response, "content-security-policy") ?? "";
  expect(policy, label).not.toMatch(/'nonce-/);
  expect(bodyNonces(response.text()), label).toEqual(new Set());
  const allowed = new Set([...policy.matchAll(/'sha256-([^']+)'/g)].map((match) => match[1]));
  const inline = new Set(
    [...response.text().matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
      .filter((match) => !/\bsrc=/.test(match[1] as string))
      .map((match) =>
        createHash("sha256")
          .update(match[2] as string)
          .digest("base64"),
      ),
  );
  expect(inline.size, `${label} has inline scripts`).toBeGreaterThan(0);
  expect(allowed, label).toEqual(inline);
}

describe("page cache rules (in-process)", () => {
  let server: Server;
  let base: string;
  let version = 1;
  let renders = 0;
  /** /gated/* renders once this is settled. */
  let gate: Promise<void> = Promise.resolve();
  let gatedRequests = 0;
  /** /gated/withdrawn is not found from this content version on. */
  let withdrawnFrom = Number.POSITIVE_INFINITY;

  /** Holds /gated/* renders back until the returned function is called. */
  function closeGate(): () => void {
    let open = () => {};
    gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    return open;
  }

  beforeAll(async () => {
    const cache = createPageCache({ version: () => version, maxEntries: 3 });
    const app = express();
    app.set("trust proxy", true);
    app.use(compression());
    app.use(assignCspNonce);
    app.use(securityHeaders({ imageOrigins: [], allowDevServer: false }));
    app.get("/set-cookie", (_req, res) => {
      res.cookie("flash", "1").type("html").send("<p>with a cookie</p>");
    });
    app.get("/private", (_req, res) => {
      res.set("Cache-Control", "private, no-store").type("html").send("<p>private</p>");
    });
    app.use(cache.capture);
    app.get(["/gated", "/gated/next", "/gated/withdrawn"], async (_req, res, next) => {
      gatedRequests++;
      await gate;
      // A render whose visitor left answers nothing (React Router aborts it).
      if (res.closed) return;
      next();
    });
    app.get("/large", (_req, res) => {
      res.type("html");
      // Past the 2 MiB a cached body may hold, in pieces.
      for (let piece = 0; piece < 3; piece++) res.write(`<p>${"x".repeat(1024 * 1024)}</p>`);
      res.end("<p>end</p>");
    });
    app.use((req, res) => {
      renders++;
      const nonce = res.locals.cspNonce as string;
      const gone = req.path === "/missing" || (req.path === "/gated/withdrawn" && version >= withdrawnFrom);
      const status = gone ? 404 : 200;
      res.status(status).type("html");
      // Streamed in pieces, as React Router does; long enough to be compressed.
      res.write(`<!doctype html><html><head><script nonce="${nonce}">window.x=1</script></head><body>`);
      res.write(`<p>${req.path} v${version} render ${renders}</p>${"<p>filler text</p>".repeat(200)}`);
      res.end(`<script nonce="${nonce}">window.y=2</script></body></html>`);
    });
    server = createServer(
      serveCachedPagesFirst({
        pageCache: cache,
        logger: createLogger({ level: "silent" }),
        trustProxy: 1,
        pageViews: { observe: () => {}, recordServed: () => {} },
        next: app,
      }),
    );
    await new Promise<void>((resolve) => {
      server.listen(0, "127.0.0.1", () => resolve());
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  it("renders once, then serves the same body, its scripts allowed by hash instead of the render's nonce", async () => {
    const first = await request(`${base}/one`);
    expect(first.status).toBe(200);
    expect(header(first, "x-page-cache")).toBe("miss");
    expect(header(first, "cache-control")).toBe(PAGE_CACHE_CONTROL);
    expect(header(first, "vary")).toBe("Accept-Encoding");
    expect(header(first, "content-length")).toBe(String(first.body.length));
    const rendersBefore = renders;

    const second = await request(`${base}/one`);
    expect(second.status).toBe(200);
    expect(header(second, "x-page-cache")).toBe("hit");
    expect(renders).toBe(rendersBefore);
    expect(second.text()).toBe(first.text());
    expect(header(second, "content-security-policy")).toBe(header(first, "content-security-policy"));
    expectScriptsAllowedByHash(first);
    expect(second.text()).toContain("<script>window.x=1</script>");
    expect(header(second, "etag")).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(header(second, "etag")).toBe(header(first, "etag"));
    expect(header(second, "cache-control")).toBe(PAGE_CACHE_CONTROL);
    expect(header(second, "content-length")).toBe(String(second.body.length));
    // The rest of the baseline is still there.
    expect(header(second, "content-security-policy")).toMatch(/frame-ancestors 'none'/);
    expect(header(second, "x-content-type-options")).toBe("nosniff");
  });

  it("renders a page once for concurrent first visitors: the others wait for it and get its entry", async () => {
    const rendersBefore = renders;
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => request(`${base}/stampede`, { headers: { "Accept-Encoding": "gzip" } })),
    );
    expect(renders - rendersBefore).toBe(1);
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((answer) => header(answer, "etag"))).size).toBe(1);
    expect(answers.filter((answer) => header(answer, "x-page-cache") === "miss")).toHaveLength(1);
    // A page that is not kept (here a 404) is rendered for each visitor, one after another.
    const missing = await Promise.all(Array.from({ length: 3 }, () => request(`${base}/missing`)));
    expect(missing.map((answer) => answer.status)).toEqual([404, 404, 404]);
  });

  it("never makes visitors wait for a render done for someone who left", async () => {
    const open = closeGate();
    const first = request(`${base}/gated`);
    await expect.poll(() => gatedRequests).toBe(1);
    // A second visitor waits for that render, then leaves.
    // The server's own "request" listener runs first and has made the visitor wait when this one runs.
    const leavingArrived = once(server, "request");
    const leaving = connect((server.address() as AddressInfo).port, "127.0.0.1");
    leaving.write("GET /gated HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    const [, waitingResponse] = (await leavingArrived) as [IncomingMessage, ServerResponse];
    leaving.destroy();
    await once(waitingResponse, "close");
    // The content changes during the render, which is therefore not kept: the one who
    // left now has to render the new version, for nobody.
    version++;
    open();
    expect((await first).status).toBe(200);
    await expect.poll(() => gatedRequests).toBe(2);
    const later = await Promise.race([
      request(`${base}/gated`),
      delay(3_000).then(() => Promise.reject(new Error("GET /gated is still waiting after 3 s"))),
    ]);
    expect(later.status).toBe(200);
    expect(header(later, "x-page-cache")).toBe("miss");
  });

  it("serves the previous version while the current one renders, but not once the current one is gone", async () => {
    version++;
    const previous = await request(`${base}/gated/next`);
    expect(header(previous, "x-page-cache")).toBe("miss");
    version++;
    let open = closeGate();
    const rendersBefore = gatedRequests;
    const current = request(`${base}/gated/next`);
    await expect.poll(() => gatedRequests).toBe(rendersBefore + 1);
    const meanwhile = await request(`${base}/gated/next`);
    expect(header(meanwhile, "x-page-cache")).toBe("stale");
    expect(meanwhile.text()).toBe(previous.text());
    expect(header(meanwhile, "etag")).toBe(header(previous, "etag"));
    expect(gatedRequests).toBe(rendersBefore + 1);
    open();
    expect(header(await current, "x-page-cache")).toBe("miss");
    expect((await current).text()).toContain(`v${version}`);
    expect(header(await request(`${base}/gated/next`), "x-page-cache")).toBe("hit");

    // After another write, a render of the version before it is not worth waiting for:
    // the first visitor after the write renders the page.
    version++;
    open = closeGate();
    const overtaken = request(`${base}/gated/next`);
    await expect.poll(() => gatedRequests).toBe(rendersBefore + 2);
    version++;
    const afterWrite = request(`${base}/gated/next`);
    await expect.poll(() => gatedRequests).toBe(rendersBefore + 3);
    open();
    expect(header(await afterWrite, "x-page-cache")).toBe("miss");
    expect(header(await overtaken, "x-page-cache")).toBe("miss");

    // A page the new version no longer has: its previous version is served only until
    // the first render of the new version says so.
    expect((await request(`${base}/gated/withdrawn`)).status).toBe(200);
    version++;
    withdrawnFrom = version;
    open = closeGate();
    const firstRender = request(`${base}/gated/withdrawn`);
    await expect.poll(() => gatedRequests).toBe(rendersBefore + 4);
    expect(header(await request(`${base}/gated/withdrawn`), "x-page-cache")).toBe("stale");
    open();
    expect((await firstRender).status).toBe(404);
    open = closeGate();
    const secondRender = request(`${base}/gated/withdrawn`);
    await expect.poll(() => gatedRequests).toBe(rendersBefore + 5);
    const duringSecondArrived = once(server, "request");
    const duringSecond = request(`${base}/gated/withdrawn`);
    // It arrives while the render is under way, and waits for it.
    await duringSecondArrived;
    open();
    expect((await secondRender).status).toBe(404);
    const answer = await duringSecond;
    expect(answer.status).toBe(404);
    expect(header(answer, "x-page-cache")).toBeUndefined();
  });

  it("gives the first, rendered, response its ETag, which a 304 then answers", async () => {
    const first = await request(`${base}/first`);
    expect(header(first, "x-page-cache")).toBe("miss");
    const etag = header(first, "etag") as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const rendersBefore = renders;
    const revalidated = await request(`${base}/first`, { headers: { "If-None-Match": etag } });
    expect(revalidated.status).toBe(304);
    expect(header(revalidated, "etag")).toBe(etag);
    expect(header(revalidated, "content-security-policy")).toBe(header(first, "content-security-policy"));
    expect(renders).toBe(rendersBefore);

    // The first response of a compressed representation carries its own tag too.
    const gzipped = await request(`${base}/first-gzip`, { headers: { "Accept-Encoding": "gzip" } });
    expect(header(gzipped, "x-page-cache")).toBe("miss");
    expect(header(gzipped, "content-encoding")).toBe("gzip");
    expect(header(gzipped, "etag")).toMatch(/-gzip"$/);
    const gzipRevalidated = await request(`${base}/first-gzip`, {
      headers: { "Accept-Encoding": "gzip", "If-None-Match": header(gzipped, "etag") as string },
    });
    expect(gzipRevalidated.status).toBe(304);
  });

  it("answers 304 to a matching If-None-Match, with the body's script hashes in the CSP", async () => {
    const cached = await request(`${base}/one`);
    const etag = header(cached, "etag") as string;
    const revalidated = await request(`${base}/one`, { headers: { "If-None-Match": etag } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    expect(header(revalidated, "etag")).toBe(etag);
    expect(header(revalidated, "content-security-policy")).toBe(header(cached, "content-security-policy"));
    expectScriptsAllowedByHash(cached);

    const weak = await request(`${base}/one`, { headers: { "If-None-Match": `"other", W/${etag}` } });
    expect(weak.status).toBe(304);
    const stale = await request(`${base}/one`, { headers: { "If-None-Match": '"other"' } });
    expect(stale.status).toBe(200);
  });

  it("serves precompressed gzip and brotli with their own ETags", async () => {
    const plain = await request(`${base}/one`);
    const gzipped = await request(`${base}/one`, { headers: { "Accept-Encoding": "gzip" } });
    expect(header(gzipped, "content-encoding")).toBe("gzip");
    expect(gunzipSync(gzipped.body).toString()).toBe(plain.text());
    expect(header(gzipped, "etag")).not.toBe(header(plain, "etag"));
    expect(header(gzipped, "vary")).toBe("Accept-Encoding");
    // Brotli is preferred when the client accepts both equally, whatever their order.
    const brotli = await request(`${base}/one`, { headers: { "Accept-Encoding": "gzip, br" } });
    expect(header(brotli, "content-encoding")).toBe("br");
    const rankedGzip = await request(`${base}/one`, { headers: { "Accept-Encoding": "gzip, br;q=0.5" } });
    expect(header(rankedGzip, "content-encoding")).toBe("gzip");
    const refused = await request(`${base}/one`, { headers: { "Accept-Encoding": "br;q=0, gzip;q=0" } });
    expect(header(refused, "content-encoding")).toBeUndefined();
    expect(refused.text()).toBe(plain.text());
    expect(brotliDecompressSync(brotli.body).toString()).toBe(plain.text());
    // A client holding the gzip representation's tag revalidates too.
    const revalidated = await request(`${base}/one`, {
      headers: { "Accept-Encoding": "gzip", "If-None-Match": header(gzipped, "etag") as string },
    });
    expect(revalidated.status).toBe(304);
    expect(header(revalidated, "content-security-policy")).toBe(header(plain, "content-security-policy"));
  });

  it("does not replay HSTS: it follows the request answered, not the one rendered", async () => {
    const overHttps = await request(`${base}/hsts`, { headers: { "X-Forwarded-Proto": "https" } });
    expect(header(overHttps, "strict-transport-security")).toBeDefined();
    const overHttp = await request(`${base}/hsts`);
    expect(header(overHttp, "x-page-cache")).toBe("hit");
    expect(header(overHttp, "strict-transport-security")).toBeUndefined();
    expect(header(overHttp, "content-type")).toMatch(/^text\/html/);
    const againOverHttps = await request(`${base}/hsts`, { headers: { "X-Forwarded-Proto": "https" } });
    expect(header(againOverHttps, "x-page-cache")).toBe("hit");
    expect(header(againOverHttps, "strict-transport-security")).toBeDefined();
  });

  it("answers HEAD from the cache without a body", async () => {
    const head = await request(`${base}/one`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(header(head, "x-page-cache")).toBe("hit");
    expect(head.body.length).toBe(0);
  });

  it("stores a page whose first request is a HEAD, and answers it with its GET's headers", async () => {
    const rendersBefore = renders;
    const head = await request(`${base}/first-head`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(header(head, "x-page-cache")).toBe("miss");
    expect(header(head, "cache-control")).toBe(PAGE_CACHE_CONTROL);
    const etag = header(head, "etag") as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);

    const get = await request(`${base}/first-head`);
    expect(header(get, "x-page-cache")).toBe("hit");
    expect(header(get, "etag")).toBe(etag);
    expect(header(head, "content-length")).toBe(String(get.body.length));
    expect(get.text()).toContain("/first-head");
    expect(renders).toBe(rendersBefore + 1);
  });

  it("never serves or stores pages for signed-in visitors", async () => {
    const anonymous = await request(`${base}/one`);
    for (const cookie of ["bastion.session_token=abc", "__Secure-bastion.session_token=abc", "a=1; bastion.x=2"]) {
      const signedIn = await request(`${base}/one`, { headers: { Cookie: cookie } });
      expect(signedIn.status).toBe(200);
      expect(header(signedIn, "x-page-cache")).toBeUndefined();
      expect(header(signedIn, "cache-control")).toBeUndefined();
      expect(header(anonymous, "content-security-policy")).not.toMatch(/'nonce-/);
      expect(bodyNonces(signedIn.text())).toEqual(new Set([cspNonce(signedIn)]));
    }
  });

  it("keeps one copy of a page whatever the theme cookie (the page applies it), without Vary: Cookie", async () => {
    const dark = await request(`${base}/themed`, { headers: { Cookie: "theme=dark" } });
    expect(header(dark, "x-page-cache")).toBe("miss");
    for (const cookie of ["theme=light", "theme=%3Cscript%3E", "other=1"]) {
      const answer = await request(`${base}/themed`, { headers: { Cookie: cookie } });
      expect(header(answer, "x-page-cache"), cookie).toBe("hit");
      expect(answer.text()).toBe(dark.text());
      expect(header(answer, "vary")).toBe("Accept-Encoding");
    }
    expect(header(await request(`${base}/themed`), "x-page-cache")).toBe("hit");
  });

  it("does not cache private paths, data requests, query strings, errors, cookies or private answers", async () => {
    for (const path of [
      "/admin",
      "/admin/tips",
      "/auth",
      "/api/me",
      "/blog.data",
      "/one?token=x",
      "/newsletter/confirm",
      "/missing",
      "/set-cookie",
      "/private",
    ]) {
      await request(`${base}${path}`);
      const again = await request(`${base}${path}`);
      expect(header(again, "x-page-cache"), path).not.toBe("hit");
    }
    const missing = await request(`${base}/missing`);
    expect(missing.status).toBe(404);
    expect(header(missing, "cache-control")).toBeUndefined();
  });

  it("keeps a page only under its one spelling: other spellings render every time", async () => {
    for (const path of ["/%6Fther-spelling", "/Other-Spelling", "/other-spelling/"]) {
      const before = renders;
      await request(`${base}${path}`);
      const again = await request(`${base}${path}`);
      expect(again.status, path).toBe(200);
      expect(header(again, "x-page-cache"), path).toBeUndefined();
      expect(renders - before, path).toBe(2);
    }
    await request(`${base}/other-spelling`);
    expect(header(await request(`${base}/other-spelling`), "x-page-cache")).toBe("hit");
  });

  it("excludes a private prefix as a whole path segment, not every path that starts with its letters", () => {
    const keyOf = (url: string) => pageCacheKey({ method: "GET", url, headers: {} });
    const excludedPaths = ["/admin", "/admin/tips", "/auth.data", "/.well-known/security.txt", "/healthz", "/api/"];
    for (const excluded of [...excludedPaths, "/assets/app.js", "/newsletter/confirm"]) {
      expect(keyOf(excluded), excluded).toBeNull();
    }
    for (const kept of ["/administrator", "/newsletters", "/apis", "/.well-knownx", "/assets-list", "/blog/admin"]) {
      expect(keyOf(kept), kept).toBe(kept);
    }
  });

  it("sends a body too large to keep as it was written, and renders it every time", async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const large = await request(`${base}/large`);
      expect(large.status).toBe(200);
      expect(header(large, "x-page-cache")).toBeUndefined();
      expect(header(large, "etag")).toBeUndefined();
      expect(large.body.length).toBe(3 * (1024 * 1024 + "<p></p>".length) + "<p>end</p>".length);
      expect(large.text().endsWith("</p><p>end</p>")).toBe(true);
    }
  });

  it("renders a page again for the first visitor after the content version changes", async () => {
    const before = await request(`${base}/one`);
    expect(header(before, "x-page-cache")).toBe("hit");
    version++;
    const after = await request(`${base}/one`);
    expect(header(after, "x-page-cache")).toBe("miss");
    expect(after.text()).toContain(`v${version}`);
    expectScriptsAllowedByHash(after);
    const old = await request(`${base}/one`, { headers: { "If-None-Match": header(before, "etag") as string } });
    expect(old.status).toBe(200);
  });

  it("stays within its bounds, least recently used first", async () => {
    version++;
    for (const path of ["/a", "/b", "/c"]) await request(`${base}${path}`);
    expect(header(await request(`${base}/a`), "x-page-cache")).toBe("hit"); // /a becomes the most recent
    await request(`${base}/d`); // evicts /b, the least recently used
    expect(header(await request(`${base}/a`), "x-page-cache")).toBe("hit");
    expect(header(await request(`${base}/c`), "x-page-cache")).toBe("hit");
    expect(header(await request(`${base}/d`), "x-page-cache")).toBe("hit");
    expect(header(await request(`${base}/b`), "x-page-cache")).toBe("miss");
  });
});

describe("page cache hits of one turn (in-process)", () => {
  let holding: Server;
  let url: string;
  // Requests marked X-Hold are answered together once two have arrived, in one turn.
  let held: Array<[IncomingMessage, ServerResponse]> = [];
  let ended = { inTheTurn: [] as boolean[], afterIt: [] as boolean[] };
  /** Closes the first held request's connection right after its answer is queued. */
  let closeFirst = false;
  /** Called when a request is held and waits for the second. */
  let heldOne = () => {};

  beforeAll(async () => {
    const cache = createPageCache({ version: () => 1 });
    const app = express();
    // The cache keeps a page rendered with a CSP nonce only.
    app.use(assignCspNonce);
    app.use(cache.capture);
    app.use((req, res) => {
      res.type("html").send(`<p>${req.path}</p>${"<p>kept</p>".repeat(200)}`);
    });
    const listener = serveCachedPagesFirst({
      pageCache: cache,
      logger: createLogger({ level: "silent" }),
      trustProxy: false,
      pageViews: { observe: () => {}, recordServed: () => {} },
      next: app,
    });
    holding = createServer((req, res) => {
      if (req.headers["x-hold"] === undefined) return listener(req, res);
      held.push([req, res]);
      if (held.length < 2) return heldOne();
      const answered = held;
      held = [];
      for (const [heldRequest, heldResponse] of answered) listener(heldRequest, heldResponse);
      if (closeFirst) answered[0]?.[0].socket.destroy();
      ended.inTheTurn = answered.map(([, response]) => response.writableEnded);
      setImmediate(() => {
        ended.afterIt = answered.map(([, response]) => response.writableEnded);
      });
    });
    await new Promise<void>((resolve) => holding.listen(0, "127.0.0.1", () => resolve()));
    url = `http://127.0.0.1:${(holding.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => holding?.close(resolve));
  });

  const hold = { headers: { "X-Hold": "1" } };

  it("ends the hits answered in one turn of the event loop together, after the turn, each whole", async () => {
    const rendered = await request(`${url}/together`);
    expect(header(rendered, "x-page-cache")).toBe("miss");
    const answers = await Promise.all([request(`${url}/together`, hold), request(`${url}/together`, hold)]);
    expect(ended).toEqual({ inTheTurn: [false, false], afterIt: [true, true] });
    for (const answer of answers) {
      expect(header(answer, "x-page-cache")).toBe("hit");
      expect(answer.text()).toBe(rendered.text());
    }
  });

  it("answers requests pipelined on one connection in their order", async () => {
    const first = await request(`${url}/first`);
    const second = await request(`${url}/second`);
    const socket = connect((holding.address() as AddressInfo).port, "127.0.0.1");
    const received: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => received.push(chunk));
    // Both requests in one write: node:http reads them in one turn.
    socket.write(
      "GET /first HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /second HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
    );
    await new Promise((resolve) => socket.once("close", resolve));
    const text = Buffer.concat(received).toString("utf8");
    const answers = text.split(/(?=HTTP\/1\.1 )/);
    expect(answers.map((answer) => answer.split("\r\n")[0])).toEqual(["HTTP/1.1 200 OK", "HTTP/1.1 200 OK"]);
    expect(answers.map((answer) => /x-page-cache: (\w+)/i.exec(answer)?.[1])).toEqual(["hit", "hit"]);
    expect(answers.map((answer) => answer.slice(answer.indexOf("\r\n\r\n") + 4))).toEqual([
      first.text(),
      second.text(),
    ]);
  });

  it("still ends the others of the turn when one's connection closed before its end", async () => {
    const rendered = await request(`${url}/closing`);
    closeFirst = true;
    ended = { inTheTurn: [], afterIt: [] };
    const firstHeld = new Promise<void>((resolve) => {
      heldOne = resolve;
    });
    const [closed, answered] = await Promise.allSettled([
      request(`${url}/closing`, hold),
      // Sent once the first is held, so that the first is the one closed.
      firstHeld.then(() => request(`${url}/closing`, hold)),
    ]);
    closeFirst = false;
    expect(closed.status).toBe("rejected");
    expect(answered.status).toBe("fulfilled");
    const answer = (answered as PromiseFulfilledResult<RawResponse>).value;
    expect(header(answer, "x-page-cache")).toBe("hit");
    expect(answer.text()).toBe(rendered.text());
    expect(ended.inTheTurn).toEqual([false, false]);
  });
});

describe("page cache on the built server", () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer();
  });

  afterAll(async () => {
    await server?.stop();
  });

  async function fetchTwice(path: string, headers: Record<string, string> = {}) {
    const first = await request(`${server.url}${path}`, { headers });
    const second = await request(`${server.url}${path}`, { headers });
    return { first, second };
  }

  it("serves the second anonymous GET from the cache: same body, scripts allowed by hash, no nonce", async () => {
    for (const path of ["/", "/blog", "/resources"]) {
      const { first, second } = await fetchTwice(path);
      expect(first.status, path).toBe(200);
      expect(header(first, "x-page-cache"), path).toBe("miss");
      expect(header(second, "x-page-cache"), path).toBe("hit");
      expect(second.text()).toBe(first.text());
      expect(header(first, "etag"), path).toMatch(/^"[A-Za-z0-9_-]+"$/);
      expect(header(second, "etag"), path).toBe(header(first, "etag"));
      expectScriptsAllowedByHash(first, path);
      expect(header(second, "content-security-policy")).toBe(header(first, "content-security-policy"));
      expect(header(second, "cache-control")).toMatch(/s-maxage=\d+/);
    }
  });

  it("answers a page's first request, a HEAD, with the headers its GET gets, and keeps the page for the GET", async () => {
    // A document and a resource route: React Router renders the body of neither for a HEAD.
    for (const path of ["/about", "/feed.xml"]) {
      const head = await request(`${server.url}${path}`, { method: "HEAD" });
      expect(head.status, path).toBe(200);
      expect(head.body.length, path).toBe(0);
      expect(header(head, "x-page-cache"), path).toBe("miss");
      expect(header(head, "cache-control"), path).toBe(PAGE_CACHE_CONTROL);
      expect(header(head, "etag"), path).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const get = await request(`${server.url}${path}`);
      expect(header(get, "x-page-cache"), path).toBe("hit");
      // The page the HEAD stored is the whole render, not the HEAD's empty body.
      expect(get.text(), path).toMatch(path === "/about" ? /<\/html>\s*$/ : /<\/feed>\s*$/);
      expect(header(get, "etag"), path).toBe(header(head, "etag"));
      expect(header(head, "content-type"), path).toBe(header(get, "content-type"));
      expect(header(head, "content-length"), path).toBe(String(get.body.length));
      expect(header(head, "content-security-policy"), path).toBe(header(get, "content-security-policy"));
      if (path === "/about") expectScriptsAllowedByHash(get, path);
    }
  });

  it("answers 304 to the If-None-Match of the page's first response, with the cached body's script hashes", async () => {
    const cached = await request(`${server.url}/projects`);
    expect(header(cached, "x-page-cache")).toBe("miss");
    const etag = header(cached, "etag");
    expect(etag).toBeTruthy();
    const revalidated = await request(`${server.url}/projects`, { headers: { "If-None-Match": etag as string } });
    expect(revalidated.status).toBe(304);
    expect(header(revalidated, "content-security-policy")).toBe(header(cached, "content-security-policy"));
    expectScriptsAllowedByHash(cached);
  });

  it("renders afresh for a request with a session cookie", async () => {
    const { second: cached } = await fetchTwice("/blog");
    const { first, second } = await fetchTwice("/blog", { Cookie: "bastion.session_token=not-a-real-session" });
    for (const signedIn of [first, second]) {
      expect(signedIn.status).toBe(200);
      expect(header(signedIn, "x-page-cache")).toBeUndefined();
      expect(header(signedIn, "etag")).toBeUndefined();
      expect(bodyNonces(signedIn.text())).toEqual(new Set([cspNonce(signedIn)]));
    }
    expect(cspNonce(first)).not.toBe(cspNonce(second));
    expect(header(cached, "content-security-policy")).not.toMatch(/'nonce-/);
  });

  it("serves a fresh page after a content write", async () => {
    const { second: before } = await fetchTwice("/sitemap.xml");
    expect(header(before, "x-page-cache")).toBe("hit");
    const { second: pageBefore } = await fetchTwice("/");
    expect(header(pageBefore, "x-page-cache")).toBe("hit");

    // A write straight into the database, then the reload an operator does after one
    // (SIGHUP → PublishedContent.invalidate(), the hook every content service calls).
    const config = loadConfig({ DATA_DIR: server.dataDir, LOG_LEVEL: "error" });
    const database = openDatabase(config.database);
    const slug = `cache-check-${randomUUID().slice(0, 8)}`;
    try {
      await database.db
        .insertInto("chapters")
        .values({
          id: randomUUID(),
          slug,
          title: "Cache check",
          number: 99,
          order_index: 99,
          published: true,
          published_at: new Date().toISOString(),
        })
        .execute();
    } finally {
      await database.close();
    }
    const listening = await server.waitForLog(
      (line) => typeof line.msg === "string" && line.msg.startsWith("Listening"),
    );
    process.kill(listening.pid as number, "SIGHUP");
    await server.waitForLog((line) => line.msg === "Published content reloaded (SIGHUP)");

    const after = await request(`${server.url}/sitemap.xml`);
    expect(header(after, "x-page-cache")).toBe("miss");
    expect(after.text()).toContain(`/projects/${slug}`);
    const pageAfter = await request(`${server.url}/`);
    expect(header(pageAfter, "x-page-cache")).toBe("miss");
    expectScriptsAllowedByHash(pageAfter);
    // ETags follow the bytes: the changed sitemap's old tag no longer matches; the home
    // page, rendered again to the same bytes, still revalidates.
    const stale = await request(`${server.url}/sitemap.xml`, {
      headers: { "If-None-Match": header(before, "etag") as string },
    });
    expect(stale.status).toBe(200);
    const unchanged = await request(`${server.url}/`, {
      headers: { "If-None-Match": header(pageBefore, "etag") as string },
    });
    expect(unchanged.status).toBe(304);
  });
});
