import type { IncomingMessage } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chooseRequestId } from "../../server/http/request-id.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { type LogLine, type RunningServer, startServer } from "../helpers/server.ts";
import { header, type RawResponse, request } from "./client.ts";

/**
 * Request ids (server/http/request-id.ts) on the real server: every answer, page cache
 * hits and 304s included, carries one X-Request-Id, and the request's log line (JSON)
 * carries the same id as reqId. A trusted proxy's id is kept; anyone else's is replaced.
 */

/** 16 random bytes in hexadecimal, as nginx's $request_id. */
const NEW_ID = /^[0-9a-f]{32}$/;

/** The request's log line: the one naming its path and carrying this id. */
function requestLine(server: RunningServer, id: string, path: string): Promise<LogLine> {
  return server.waitForLog((line) => line.reqId === id && (line.req as { path?: string } | undefined)?.path === path);
}

/** The one X-Request-Id of a response (a repeated header would come joined by a comma). */
function requestId(response: RawResponse): string {
  const id = header(response, "x-request-id");
  expect(id).toBeDefined();
  expect(id).not.toContain(",");
  return id as string;
}

describe("a new request id", () => {
  it("is 16 random bytes in hexadecimal, never the same twice, across refills of its random pool", () => {
    const untrusted = () => false;
    const incoming = { headers: {}, socket: { remoteAddress: "127.0.0.1" } } as unknown as IncomingMessage;
    // The pool holds 256 ids' bytes: 2,000 ids draw it several times over.
    const ids = Array.from({ length: 2_000 }, () => chooseRequestId(incoming, untrusted));
    for (const id of ids) expect(id).toMatch(NEW_ID);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe.each(TEST_DIALECTS)("request ids (%s)", (dialect) => {
  describe("behind a trusted proxy (TRUST_PROXY=loopback)", () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startServer({ dialect, env: { TRUST_PROXY: "loopback" } });
    });
    afterAll(() => server?.stop());

    it("makes an id for a request without one, sends it back and logs it as reqId in a JSON line", async () => {
      const response = await request(`${server.url}/about?utm=x`);
      expect(response.status).toBe(200);
      const id = requestId(response);
      expect(id).toMatch(NEW_ID);
      const line = await requestLine(server, id, "/about");
      expect((line.res as { status?: number }).status).toBe(200);
      // The captured line was parsed from the server's stdout as JSON.
      expect(JSON.stringify(line)).toContain(`"reqId":"${id}"`);
    });

    it("keeps the proxy's id when it is a short safe token", async () => {
      const response = await request(`${server.url}/resources`, { headers: { "X-Request-Id": "nginx-4f2a.01_Z" } });
      expect(requestId(response)).toBe("nginx-4f2a.01_Z");
      await requestLine(server, "nginx-4f2a.01_Z", "/resources");
    });

    it.each([
      ["with spaces", "a b"],
      ["too long", "x".repeat(65)],
      ["with a newline", "abc%0d%0aSet-Cookie:x"],
      ["with quotes", 'abc"def'],
    ])("replaces an id %s", async (_case, unsafe) => {
      const response = await request(`${server.url}/healthz`, { headers: { "X-Request-Id": unsafe } });
      const id = requestId(response);
      expect(id).not.toBe(unsafe);
      expect(id).toMatch(NEW_ID);
    });

    it("sends an id of its own on page cache hits and 304s, and logs a hit with it", async () => {
      const miss = await request(`${server.url}/projects`);
      const hit = await request(`${server.url}/projects`);
      expect(header(hit, "x-page-cache")).toBe("hit");
      const hitId = requestId(hit);
      expect(hitId).not.toBe(requestId(miss));
      await requestLine(server, hitId, "/projects");

      const revalidated = await request(`${server.url}/projects`, {
        headers: { "If-None-Match": header(hit, "etag") as string, "X-Request-Id": "cdn-edge-304" },
      });
      expect(revalidated.status).toBe(304);
      expect(requestId(revalidated)).toBe("cdn-edge-304");
      const line = await requestLine(server, "cdn-edge-304", "/projects");
      expect((line.res as { status?: number }).status).toBe(304);
    });

    it("sends an id on answers Express writes itself: a 404 asset, a refused cross-origin POST", async () => {
      expect(requestId(await request(`${server.url}/assets/missing.js`))).toMatch(NEW_ID);
      const refused = await request(`${server.url}/api/newsletter/subscribe`, {
        method: "POST",
        headers: { Origin: "https://evil.example", "Content-Type": "application/json", "X-Request-Id": "proxy-403" },
        body: "{}",
      });
      expect(refused.status).toBe(403);
      expect(requestId(refused)).toBe("proxy-403");
      const warning = await server.waitForLog((line) => line.reqId === "proxy-403" && line.level === 40);
      expect(warning.msg).toBe("Refused a cross-origin request");
    });
  });

  describe("in the lines of a failing request", () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startServer({ dialect });
    });
    afterAll(() => server?.stop());

    it("carries the id in the Express layer's error line", async () => {
      // A malformed escape in a route parameter: Express's error handler logs it.
      const response = await request(`${server.url}/media/images/%E0%A4%A`);
      expect(response.status).toBe(400);
      const id = requestId(response);
      const line = await server.waitForLog((candidate) => candidate.reqId === id && candidate.msg === "Bad request");
      expect(line.level).toBe(40);
    });

    it("carries the id in React Router's error line", async () => {
      // A POST to a page without an action: React Router's handleError logs a warning.
      const response = await request(`${server.url}/about`, {
        method: "POST",
        headers: { Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
        body: "a=1",
      });
      expect(response.status).toBe(405);
      const id = requestId(response);
      const line = await server.waitForLog((candidate) => candidate.reqId === id && candidate.path === "/about");
      expect(line.level).toBe(40);
      expect(line.status).toBe(405);
    });
  });

  describe("without a trusted proxy", () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startServer({ dialect });
    });
    afterAll(() => server?.stop());

    it("ignores a client's X-Request-Id, on rendered pages and cache hits alike", async () => {
      for (let index = 0; index < 2; index += 1) {
        const response = await request(`${server.url}/blog`, { headers: { "X-Request-Id": "chosen-by-client" } });
        expect(response.status).toBe(200);
        const id = requestId(response);
        expect(id).toMatch(NEW_ID);
        await requestLine(server, id, "/blog");
      }
      expect(server.logs().some((line) => line.reqId === "chosen-by-client")).toBe(false);
    });
  });
});
