import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonicalPath, isCanonicalPath } from "../../server/http/canonical-path.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";
import { header, request } from "./client.ts";

/** One URL per page: other spellings of a page's path redirect to it (server/http/canonical-path.ts). */

describe("canonicalPath", () => {
  it.each([
    ["/About", "/about"],
    ["/about/", "/about"],
    ["//about", "/about"],
    ["//evil.example/", "/evil.example"],
    ["/Projects//Intro-Chapter/", "/projects/intro-chapter"],
    ["/ADMIN/Settings", "/admin/settings"],
    ["/Feed.xml", "/feed.xml"],
    ["//", "/"],
  ])("spells %s as %s", (path, expected) => {
    expect(canonicalPath(path)).toBe(expected);
  });

  it.each([
    "/",
    "/about",
    "/projects/intro-chapter",
    "/about.data",
    "/admin/%73ettings",
    "/Caf%C3%A9",
    "/about/../admin",
    "/About/./x",
    "/assets/entry.client-DfT5aB.js",
    "/media/Images/Photo.webp",
    "/API/auth/get-session",
    "/api/Media/",
  ])("leaves %s as it is", (path) => {
    expect(canonicalPath(path)).toBeUndefined();
  });
});

describe("isCanonicalPath", () => {
  it.each(["/", "/about", "/projects/intro-chapter", "/feed.xml"])("takes %s as a page's one spelling", (path) => {
    expect(isCanonicalPath(path)).toBe(true);
  });

  it.each([
    "/About",
    "/about/",
    "//about",
    "/%61bout",
    "/projects/%2e%2e",
    "/Caf%C3%A9",
    "/about/../about",
    "/./about",
  ])("does not take %s", (path) => {
    expect(isCanonicalPath(path)).toBe(false);
  });
});

describe("other spellings of a page's path", () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer();
  });

  afterAll(async () => {
    await server?.stop();
  });

  it("redirect GET and HEAD permanently to the page's path, with the query string, for a day", async () => {
    for (const [path, location] of [
      ["/About", "/about"],
      ["/about/", "/about"],
      ["//about", "/about"],
      ["/BLOG?page=2", "/blog?page=2"],
      ["/ADMIN/", "/admin"],
    ]) {
      for (const method of ["GET", "HEAD"]) {
        const response = await request(`${server.url}${path}`, { method });
        expect(response.status, `${method} ${path}`).toBe(301);
        expect(header(response, "location"), `${method} ${path}`).toBe(location);
        expect(header(response, "cache-control"), `${method} ${path}`).toBe("public, max-age=86400");
      }
    }
    // The page itself is served where the redirect leads.
    expect((await request(`${server.url}/about`)).status).toBe(200);
  });

  it("are left to the routes for other methods, the API and escaped paths", async () => {
    // A form posted to another spelling is not redirected (a 301 would turn it into a GET).
    const post = await request(`${server.url}/About`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": "0" },
    });
    expect(post.status).not.toBe(301);
    expect((await request(`${server.url}/API/me`)).status).not.toBe(301);
    expect((await request(`${server.url}/Caf%C3%A9`)).status).toBe(404);
  });
});
