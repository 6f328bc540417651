import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import path from "node:path";
import { brotliDecompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../helpers/run-script.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";
import { header, type RawResponse, request } from "./client.ts";

/**
 * The security baseline of ARCHITECTURE.md at the HTTP level: headers, CSP nonces,
 * asset caching, compression, the same-origin rule and request body limits.
 * None of it depends on the database, so one SQLite server serves the file.
 */

let server: RunningServer;

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server?.stop();
});

function cspDirectives(response: RawResponse): Map<string, string[]> {
  const policy = header(response, "content-security-policy");
  expect(policy, "Content-Security-Policy header").toBeTruthy();
  const directives = new Map<string, string[]>();
  for (const part of (policy as string).split(";")) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) directives.set(name.toLowerCase(), values);
  }
  return directives;
}

function scriptNonce(response: RawResponse): string {
  const scriptSrc = cspDirectives(response).get("script-src") ?? [];
  const nonces = scriptSrc.filter((value) => value.startsWith("'nonce-"));
  expect(nonces, `script-src ${scriptSrc.join(" ")}`).toHaveLength(1);
  return (nonces[0] as string).slice("'nonce-".length, -1);
}

describe("security headers", () => {
  it("sends the security baseline on pages", async () => {
    // A rendered page (the query string bypasses the page cache, whose pages carry script
    // hashes instead of a nonce: tests/http/page-cache.test.ts).
    const response = await request(`${server.url}/?render=baseline`);
    expect(response.status).toBe(200);

    const csp = cspDirectives(response);
    const scriptSrc = csp.get("script-src") ?? [];
    expect(scriptSrc.some((value) => /^'nonce-[A-Za-z0-9+/=_-]{16,}'$/.test(value))).toBe(true);
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(scriptSrc).not.toContain("'unsafe-eval'");
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    expect(csp.get("object-src")).toEqual(["'none'"]);

    expect(header(response, "x-content-type-options")).toBe("nosniff");
    expect(header(response, "referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(header(response, "permissions-policy")).toMatch(/camera=\(\)/);
    expect(header(response, "x-powered-by")).toBeUndefined();
  });

  it("sends no HSTS over plain HTTP, and ignores X-Forwarded-Proto without TRUST_PROXY", async () => {
    const plain = await request(`${server.url}/`);
    expect(header(plain, "strict-transport-security")).toBeUndefined();
    const spoofed = await request(`${server.url}/`, { headers: { "X-Forwarded-Proto": "https" } });
    expect(header(spoofed, "strict-transport-security")).toBeUndefined();
  });

  it("sends HSTS behind a trusted TLS-terminating proxy", async () => {
    const proxied = await startServer({ env: { TRUST_PROXY: "true" } });
    try {
      const overHttps = await request(`${proxied.url}/`, { headers: { "X-Forwarded-Proto": "https" } });
      expect(overHttps.status).toBe(200);
      const hsts = header(overHttps, "strict-transport-security");
      expect(hsts).toBeDefined();
      expect(Number(/max-age=(\d+)/.exec(hsts ?? "")?.[1])).toBeGreaterThanOrEqual(31_536_000);

      const overHttp = await request(`${proxied.url}/`, { headers: { "X-Forwarded-Proto": "http" } });
      expect(header(overHttp, "strict-transport-security")).toBeUndefined();
    } finally {
      expect(await proxied.stop()).toBe(0);
    }
  });
});

describe("CSP nonce", () => {
  it("puts the header's nonce on every script of a rendered page", async () => {
    const response = await request(`${server.url}/?render=scripts`);
    const nonce = scriptNonce(response);
    const scripts = response.text().match(/<script\b[^>]*>/gi) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  });

  it("uses a new nonce for every rendered response", async () => {
    // A query string bypasses the page cache (whose pages carry script hashes instead,
    // see tests/http/page-cache.test.ts): each of these is rendered afresh.
    const first = scriptNonce(await request(`${server.url}/?render=1`));
    const second = scriptNonce(await request(`${server.url}/?render=2`));
    expect(first).not.toBe(second);
  });
});

describe("static assets and compression", () => {
  it("serves hashed assets as immutable for a year", async () => {
    const html = (await request(`${server.url}/`)).text();
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]);
    expect(assets.length, "asset URLs in the HTML of /").toBeGreaterThan(0);
    for (const asset of new Set(assets)) {
      const response = await request(`${server.url}${asset}`);
      expect(response.status, asset).toBe(200);
      const cacheControl = header(response, "cache-control") ?? "";
      expect(cacheControl, asset).toContain("max-age=31536000");
      expect(cacheControl, asset).toContain("immutable");
    }
  });

  it("sends the build's brotli and gzip copies of an asset as they are", async () => {
    const html = (await request(`${server.url}/`)).text();
    const stylesheet = /href="(\/assets\/[^"]+\.css)"/.exec(html)?.[1] as string;
    expect(stylesheet, "stylesheet URL in the HTML of /").toBeTruthy();
    const file = path.join(PROJECT_ROOT, "build/client", stylesheet);
    const original = readFileSync(file);
    const answers = new Map<string, RawResponse>();
    for (const acceptEncoding of ["gzip, deflate, br, zstd", "br;q=0, gzip", "identity", ""]) {
      const response = await request(`${server.url}${stylesheet}`, { headers: { "Accept-Encoding": acceptEncoding } });
      expect(response.status, acceptEncoding).toBe(200);
      expect(header(response, "vary"), acceptEncoding).toMatch(/accept-encoding/i);
      expect(header(response, "content-type"), acceptEncoding).toMatch(/^text\/css/);
      expect(header(response, "cache-control"), acceptEncoding).toContain("immutable");
      answers.set(acceptEncoding, response);
    }
    const brotli = answers.get("gzip, deflate, br, zstd") as RawResponse;
    expect(header(brotli, "content-encoding")).toBe("br");
    // The build's copy itself, not one compressed for this request.
    expect(brotli.body.equals(readFileSync(`${file}.br`))).toBe(true);
    expect(brotliDecompressSync(brotli.body).equals(original)).toBe(true);
    const gzip = answers.get("br;q=0, gzip") as RawResponse;
    expect(header(gzip, "content-encoding")).toBe("gzip");
    expect(gzip.body.equals(readFileSync(`${file}.gz`))).toBe(true);
    for (const plain of ["identity", ""]) {
      const response = answers.get(plain) as RawResponse;
      expect(header(response, "content-encoding"), plain).toBeUndefined();
      expect(response.body.equals(original), plain).toBe(true);
    }
    // Each representation has its own validator.
    const tags = [brotli, gzip, answers.get("identity") as RawResponse].map((response) => header(response, "etag"));
    expect(new Set(tags).size).toBe(3);
  });

  it("compresses pages for clients that accept gzip", async () => {
    const compressed = await request(`${server.url}/`, { headers: { "Accept-Encoding": "gzip" } });
    expect(compressed.status).toBe(200);
    expect(header(compressed, "content-encoding")).toBe("gzip");
    expect(compressed.text()).toMatch(/<\/html>\s*$/);

    const identity = await request(`${server.url}/`, { headers: { "Accept-Encoding": "identity" } });
    expect(header(identity, "content-encoding")).toBeUndefined();
    expect(identity.text()).toMatch(/<\/html>\s*$/);
  });
});

describe("cross-origin requests", () => {
  it("refuses a POST from a foreign Origin", async () => {
    const response = await request(`${server.url}/`, {
      method: "POST",
      headers: { Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded" },
      body: "a=1",
    });
    expect(response.status).toBe(403);
    // The refusal carries the security headers too.
    expect(header(response, "x-content-type-options")).toBe("nosniff");
    await server.waitForLog((line) => line.level === 40 && line.origin === "https://evil.example");
  });

  it("refuses a POST that the browser marks as cross-site", async () => {
    const response = await request(`${server.url}/`, {
      method: "POST",
      headers: { "Sec-Fetch-Site": "cross-site", "Content-Type": "application/x-www-form-urlencoded" },
      body: "a=1",
    });
    expect(response.status).toBe(403);
  });

  it("lets a POST from the site's own Origin through", async () => {
    const response = await request(`${server.url}/`, {
      method: "POST",
      headers: {
        Origin: server.url,
        "Sec-Fetch-Site": "same-origin",
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: "a=1",
    });
    // Let through to the router, which answers 405: the home page has no action.
    expect(response.status).toBe(405);
    // The page says so, in its title as in its heading: a refusal, not a failure of ours.
    expect(response.text()).toContain("<title>This request could not be handled · Bastion</title>");
    expect(response.text()).toContain("This request could not be handled</h1>");
    // A client's mistake is logged as a warning, not as an error of ours.
    await server.waitForLog((line) => line.level === 40 && line.status === 405 && line.path === "/");
    expect(server.logs().some((line) => line.level === 50 && line.msg === "Unhandled error")).toBe(false);
  });

  it("refuses a POST carrying a session cookie but neither Origin nor Sec-Fetch-Site: same-origin", async () => {
    for (const cookie of ["bastion.session_token=forged.value", "__Secure-bastion.session_token=x"]) {
      const response = await request(`${server.url}/auth`, {
        method: "POST",
        headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
        body: "email=a%40example.com&password=x",
      });
      expect(response.status, cookie).toBe(403);
      expect(response.text()).toContain("must say where it comes from");
    }
    // The same request that says it is same-origin, or carries no cookie of ours, goes on to the route.
    const vouched = await request(`${server.url}/`, {
      method: "POST",
      headers: {
        Cookie: "bastion.session_token=x",
        "Sec-Fetch-Site": "same-origin",
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: "a=1",
    });
    expect(vouched.status).toBe(405);
    const cookieless = await request(`${server.url}/`, {
      method: "POST",
      headers: { Cookie: "theme=dark", "Content-Type": "application/x-www-form-urlencoded" },
      body: "a=1",
    });
    expect(cookieless.status).toBe(405);
  });

  it("runs a form posted from PUBLIC_URL behind a proxy that ends TLS or sends its own Host", async () => {
    const publicUrl = "https://bastion.example";
    const proxied = await startServer({ env: { PUBLIC_URL: publicUrl } });
    try {
      const themeForm = (host: string, origin: string) =>
        request(`${proxied.url}/?index`, {
          method: "POST",
          headers: {
            Host: host,
            Origin: origin,
            "Sec-Fetch-Site": "same-origin",
            "Content-Type": "application/x-www-form-urlencoded",
          },
          body: "intent=set-theme&theme=dark&returnTo=%2Fabout",
        });
      // The proxy passes the public Host on, over plain HTTP; or it sends the instance's own.
      for (const host of ["bastion.example", new URL(proxied.url).host]) {
        const response = await themeForm(host, publicUrl);
        expect(response.status, host).toBe(303);
        expect(header(response, "location"), host).toBe("/about");
        expect(String(header(response, "set-cookie")), host).toContain("theme=dark");
      }
      // React Router's list holds hosts only; the same-origin rule before it compares whole
      // origins, so PUBLIC_URL's host under another scheme stays foreign.
      expect((await themeForm(new URL(proxied.url).host, "http://bastion.example")).status).toBe(403);
      expect(proxied.logs().filter((line) => (line.level ?? 0) >= 50)).toEqual([]);
    } finally {
      expect(await proxied.stop()).toBe(0);
    }
  });

  it("serves a GET with a foreign Origin", async () => {
    const response = await request(`${server.url}/`, { headers: { Origin: "https://evil.example" } });
    expect(response.status).toBe(200);
  });
});

describe("request body limits", () => {
  /** Sends the headers and at most a small part of the body, and returns the status of the early answer. */
  function statusOfPartialPost(headers: Record<string, string>, part: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const outgoing = httpRequest(`${server.url}/`, { method: "POST", headers, agent: false }, (response) => {
        resolve(response.statusCode ?? 0);
        response.resume();
        outgoing.destroy();
      });
      outgoing.once("error", (error) => {
        // The server may close the connection right after answering.
        if ((error as NodeJS.ErrnoException).code !== "ECONNRESET") reject(error);
      });
      outgoing.setTimeout(10_000, () => reject(new Error("No answer before the body was complete")));
      outgoing.write(part);
    });
  }

  it("answers 413 to a declared body over 1 MiB without reading it", async () => {
    const status = await statusOfPartialPost(
      { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": String(1024 * 1024 + 1) },
      "a=".padEnd(1024, "x"),
    );
    expect(status).toBe(413);
  });

  it("accepts a declared body of exactly 1 MiB past the limit check", async () => {
    const body = "a=".padEnd(1024 * 1024, "x");
    const response = await request(`${server.url}/`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": String(body.length) },
      body,
    });
    expect(response.status).not.toBe(413);
    expect(response.status).not.toBe(411);
  });

  it("answers 411 to a chunked body without Content-Length", async () => {
    const status = await statusOfPartialPost(
      { "Content-Type": "application/x-www-form-urlencoded", "Transfer-Encoding": "chunked" },
      "a=1",
    );
    expect(status).toBe(411);
  });
});
