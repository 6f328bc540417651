import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FORM_BODY_REQUIRED, FORM_BODY_UNREADABLE } from "../../app/lib/read-form.server.ts";
import { type SiteWithAccounts, signIn, startSiteWithAccounts } from "../helpers/accounts.ts";
import {
  actionPath,
  BODY_ROUTES,
  concretePath,
  isResourceRoute,
  READ_ONLY_RESOURCE_ROUTES,
  ROUTE_TABLE,
  routeExports,
} from "../helpers/route-table.ts";
import { request } from "./client.ts";

/**
 * Bodies no browser form sends, posted to every page that has an action (taken from the
 * route table): the sender is told what was wrong with a 4xx, and nothing is logged as a
 * server error. POST-only APIs answer other methods 405, TRACE is refused everywhere,
 * and the theme form never sends a Location the header cannot carry or a browser would
 * read as another host.
 */

const FORM_PAGES = BODY_ROUTES.filter((route) => !isResourceRoute(route)).map((route) => actionPath(route));
const POST_APIS = BODY_ROUTES.filter(isResourceRoute);

const ADMIN = { email: "admin@example.com", name: "Ada Admin", role: "admin" as const };
let site: SiteWithAccounts;
let cookie: string;

beforeAll(async () => {
  site = await startSiteWithAccounts({ dialect: "sqlite", accounts: [ADMIN] });
  cookie = await signIn(site.server.url, ADMIN.email);
});

afterAll(async () => {
  await site?.stop();
});

const serverErrors = () => site.server.logs().filter((line) => (line.level ?? 0) >= 50);

describe("bodies that are not forms", () => {
  it("covers the pages with actions, admin and public", () => {
    expect(FORM_PAGES).toEqual(expect.arrayContaining(["/auth", "/?index", "/admin/home", "/newsletter/confirm"]));
    expect(POST_APIS.map((route) => route.path)).toContain("/api/newsletter/subscribe");
  });

  const bodies = [
    {
      name: "JSON",
      type: "application/json",
      body: '{"name":null,"intent":["x"]}',
      status: 415,
      message: FORM_BODY_REQUIRED,
    },
    { name: "plain text", type: "text/plain", body: "intent=save", status: 415, message: FORM_BODY_REQUIRED },
    { name: "no content type", type: undefined, body: "intent=save", status: 415, message: FORM_BODY_REQUIRED },
    {
      name: "broken multipart",
      type: "multipart/form-data; boundary=----x",
      body: '------x\r\nContent-Disposition: form-data; name="intent"\r\n\r\nsave\r\n--',
      status: 400,
      message: FORM_BODY_UNREADABLE,
    },
  ];

  for (const { name, type, body, status, message } of bodies) {
    it(`answers ${name} with ${status} and the reason on every page with an action`, async () => {
      for (const page of FORM_PAGES) {
        const response = await request(`${site.server.url}${page}`, {
          method: "POST",
          headers: { Origin: site.server.url, Cookie: cookie, ...(type ? { "Content-Type": type } : {}) },
          body,
        });
        expect(response.status, `POST ${page} (${name})`).toBe(status);
        expect(response.text(), `POST ${page} (${name})`).toContain(message);
      }
      expect(serverErrors()).toEqual([]);
    });
  }
});

describe("methods an endpoint does not take", () => {
  /** The signed-in admin's same-origin request, with a small JSON body unless it is a GET. */
  const signedInRequest = (method: string, path: string) =>
    request(`${site.server.url}${path}`, {
      method,
      headers: {
        Origin: site.server.url,
        Cookie: cookie,
        ...(method === "GET" ? {} : { "Content-Type": "application/json", "Content-Length": "2" }),
      },
      body: method === "GET" ? undefined : "{}",
    });

  it("answers GET on POST-only APIs with 405 and Allow, never the router's generic error", async () => {
    for (const route of POST_APIS) {
      const api = concretePath(route.path);
      expect(routeExports(route.file, "loader"), `${route.file} answers GET itself`).toBe(true);
      const response = await request(`${site.server.url}${api}`, { headers: { Cookie: cookie } });
      // React Router's own answer to a GET on a route without a loader is a 400
      // "Unexpected Server Error": each such route answers GET itself.
      expect(response.text(), `GET ${api}`).not.toContain("Unexpected Server Error");
      expect([200, 400, 405], `GET ${api}`).toContain(response.status);
      if (response.status === 405) expect(response.headers.allow, api).toMatch(/POST/);
    }
    expect(serverErrors()).toEqual([]);
  });

  it("answers writes to read-only resource routes with 405 and Allow, never the router's generic error", async () => {
    const paths = READ_ONLY_RESOURCE_ROUTES.map((route) => route.path);
    expect(paths).toEqual(expect.arrayContaining(["/api/me", "/feed.xml", "/sitemap.xml", "/robots.txt"]));
    // Every resource route answers every method itself: a read-only one through readOnlyAction.
    for (const route of ROUTE_TABLE.filter(isResourceRoute)) {
      expect(routeExports(route.file, "action"), `${route.file} answers writes itself`).toBe(true);
    }
    for (const path of paths) {
      for (const method of ["POST", "PUT", "DELETE"]) {
        const response = await signedInRequest(method, path);
        expect(response.status, `${method} ${path}`).toBe(405);
        expect(response.headers.allow, `${method} ${path}`).toBe("GET, HEAD");
        expect(JSON.parse(response.text()), `${method} ${path}`).toEqual({ error: "Method Not Allowed" });
      }
    }
    expect(serverErrors()).toEqual([]);
  });

  it("answers an unknown API path with a JSON 404 whatever the method, and logs it", async () => {
    for (const path of ["/api/nope", "/api/admin/users", "/API/Newsletter/nope/deeper"]) {
      for (const method of ["GET", "POST", "DELETE"]) {
        const response = await signedInRequest(method, path);
        expect(response.status, `${method} ${path}`).toBe(404);
        expect(response.headers["content-type"], `${method} ${path}`).toMatch(/^application\/json/);
        expect(JSON.parse(response.text()), `${method} ${path}`).toEqual({ error: "Not found" });
      }
    }
    expect(site.server.logs()).toContainEqual(
      expect.objectContaining({ msg: "API endpoint not found", method: "DELETE", path: "/api/nope" }),
    );
    expect(serverErrors()).toEqual([]);
  });

  it("answers TRACE with 405 and Allow everywhere: pages, assets, media, APIs", async () => {
    for (const path of [
      "/",
      "/about",
      "/auth",
      "/admin",
      "/assets/missing.js",
      "/media/a/b",
      ...POST_APIS.map((route) => concretePath(route.path)),
    ]) {
      // A visitor's, declaring an empty body (which the body limit lets through to the
      // renderer), and a signed-in visitor's, whose cookie the answer must not echo.
      for (const headers of [{ "Content-Length": "0" }, { Cookie: cookie }] as Record<string, string>[]) {
        const what = `TRACE ${path} (${Object.keys(headers).join()})`;
        const response = await request(`${site.server.url}${path}`, { method: "TRACE", headers });
        expect(response.status, what).toBe(405);
        expect(response.headers.allow, what).toBe("GET, HEAD, POST");
        expect(response.text(), what).not.toContain("session");
      }
    }
    expect(serverErrors()).toEqual([]);
  });
});

/**
 * A request that declares no body (neither Content-Length nor Transfer-Encoding) reaches
 * the app with its body stream already ended (server/http/listeners.ts): one whose body
 * is read must be answered at once, never left waiting for a body that cannot come.
 * node:http's client declares a length on every POST, so the POST is written by hand.
 */
function postDeclaringNoBody(url: string, headers: Record<string, string>): Promise<number> {
  const { host, hostname, port, pathname, search } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = "";
    const lines = Object.entries({ Host: host, Connection: "close", ...headers }).map(
      ([name, value]) => `${name}: ${value}`,
    );
    socket.on("connect", () => socket.write(`POST ${pathname}${search} HTTP/1.1\r\n${lines.join("\r\n")}\r\n\r\n`));
    socket.setEncoding("utf8").on("data", (chunk: string) => {
      received += chunk;
    });
    socket.once("error", reject);
    socket.once("end", () => resolve(Number(received.match(/^HTTP\/1\.1 (\d{3})/)?.[1] ?? 0)));
  });
}

/** The answer, or a failure naming the request once `ms` have passed without one. */
function answeredWithin<T>(ms: number, what: string, answer: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([answer, late]).finally(() => clearTimeout(timer));
}

describe("requests that declare no body", () => {
  const readers = [
    ...BODY_ROUTES.map((route) => actionPath(route)),
    "/api/auth/sign-in/email",
    "/api/auth/update-user",
  ];

  it("answers a POST without Content-Length 411 wherever a body is read", async () => {
    for (const path of readers) {
      const status = await answeredWithin(
        5_000,
        `POST ${path}`,
        postDeclaringNoBody(`${site.server.url}${path}`, {
          Origin: site.server.url,
          Cookie: cookie,
          "Content-Type": "application/x-www-form-urlencoded",
        }),
      );
      expect(status, `POST ${path}`).toBe(411);
    }
    expect(serverErrors()).toEqual([]);
  });

  it("answers a DELETE or OPTIONS without a body at once wherever a body is read, never with a 5xx", async () => {
    for (const path of readers) {
      for (const [method, type] of [
        ["DELETE", undefined],
        ["DELETE", "application/json"],
        ["OPTIONS", undefined],
      ] as const) {
        const what = `${method} ${path} (${type ?? "no type"})`;
        const response = await answeredWithin(
          5_000,
          what,
          request(`${site.server.url}${path}`, {
            method,
            headers: { Origin: site.server.url, Cookie: cookie, ...(type ? { "Content-Type": type } : {}) },
          }),
        );
        expect(response.status, what).toBeLessThan(500);
        // Without a body type these methods need no length: answered by the route itself.
        if (type) expect(response.status, what).toBe(411);
        else expect(response.status, what).not.toBe(411);
      }
    }
    expect(serverErrors()).toEqual([]);
  }, 60_000);
});

describe("the theme form's return path", () => {
  const returnPaths = [
    "/\t/evil.example",
    "/\n/evil.example",
    "/a\u007fb",
    "/\u3000",
    "//evil.example",
    "/\\evil.example",
    "https://evil.example/",
  ];

  it("sends every unsafe return path home instead", async () => {
    for (const returnTo of returnPaths) {
      const response = await request(`${site.server.url}/?index`, {
        method: "POST",
        headers: { Origin: site.server.url, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: "set-theme", theme: "dark", returnTo }).toString(),
      });
      expect(response.status, JSON.stringify(returnTo)).toBe(303);
      expect(response.headers.location, JSON.stringify(returnTo)).toBe("/");
    }
    expect(serverErrors()).toEqual([]);
  });

  it("keeps a safe return path, query included", async () => {
    const response = await request(`${site.server.url}/?index`, {
      method: "POST",
      headers: { Origin: site.server.url, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        intent: "set-theme",
        theme: "dark",
        returnTo: "/resources?tab=tools%20x",
      }).toString(),
    });
    expect(response.headers.location).toBe("/resources?tab=tools%20x");
  });
});

describe("Better Auth's own endpoints", () => {
  const updateUser = (body: unknown) =>
    request(`${site.server.url}/api/auth/update-user`, {
      method: "POST",
      headers: { Origin: site.server.url, Cookie: cookie, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  const storedName = async () => {
    const database = await site.openDatabase();
    try {
      // Better Auth's user table is not in the app's schema types.
      const row = await database.db
        .withTables<{ user: { email: string; name: string } }>()
        .selectFrom("user")
        .select("name")
        .where("email", "=", ADMIN.email)
        .executeTakeFirst();
      return row?.name;
    } finally {
      await database.close();
    }
  };

  it("refuses a name the account form would refuse, and keeps the stored one", async () => {
    for (const name of [null, 42, "", "   ", "x".repeat(101), "x".repeat(200_000)]) {
      const response = await updateUser({ name });
      expect(response.status, `name ${JSON.stringify(name)?.slice(0, 20)}`).toBe(400);
      expect(JSON.parse(response.text()).message).toMatch(/name/i);
    }
    expect(await storedName()).toBe(ADMIN.name);
    expect(serverErrors()).toEqual([]);
  });

  it("takes a name within the rules", async () => {
    const response = await updateUser({ name: "Ada Lovelace" });
    expect(response.status).toBe(200);
    expect(await storedName()).toBe("Ada Lovelace");
  });
});
