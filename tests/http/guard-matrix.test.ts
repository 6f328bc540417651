import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requiredRoleForPath } from "../../server/auth/access.ts";
import type { DatabaseHandle } from "../../server/db/connection.ts";
import { type SiteWithAccounts, signIn, startSiteWithAccounts } from "../helpers/accounts.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { concretePath, type FlatRoute, isUnder, ROUTE_TABLE } from "../helpers/route-table.ts";
import { type DatabaseSnapshot, rowCounts, snapshotDatabase } from "../helpers/snapshot.ts";
import { header, type RawResponse, request } from "./client.ts";

/**
 * The admin guard matrix: every admin page, action and
 * admin API endpoint, enumerated from the route table itself, refuses anonymous
 * visitors (redirect to /auth, or 401 for the API), users without a role (403) and
 * editors on admin-only screens (403), on every database, with real sessions, and none
 * of the refused requests changes any data. A route added later, anywhere, is picked up
 * here; one added outside the guarded layout fails.
 */

const ADMIN_LAYOUT = "routes/admin/layout.tsx";

/** Every route serving a URL under /admin (pages and resource routes alike). */
const ADMIN_ROUTES = ROUTE_TABLE.filter((route) => isUnder(route.path, "/admin"));
/**
 * Every route under /api/admin (JSON endpoints), the test email call the spec puts under
 * /api/newsletter, and the media API (upload, delete, import: editors and admins).
 */
const ADMIN_API_ROUTES = ROUTE_TABLE.filter(
  (route) =>
    isUnder(route.path, "/api/admin") ||
    route.path === "/api/newsletter/test-email" ||
    isUnder(route.path, "/api/media"),
);

const ACCOUNTS = {
  admin: { email: "ada.admin@example.com", name: "Ada Admin", role: "admin" as const },
  editor: { email: "eddie.editor@example.com", name: "Eddie Editor", role: "editor" as const },
  noRole: { email: "nora.norole@example.com", name: "Nora Norole", role: null },
};

/** A form that would do harm if any action accepted it. */
const HARMFUL_FORM = new URLSearchParams({
  intent: "delete",
  id: "guard-matrix-test",
  title: "Guard matrix",
  name: "Guard matrix",
  email: "guard-matrix@example.com",
  role: "admin",
  linkedin_url: "https://example.com/guard-matrix",
}).toString();

/**
 * The admin screens' own intents, aimed at the rows seeded below: each would change
 * data if the action ran. Every refused request of the matrix posts all of them.
 */
const HARMFUL_FIELDS: Array<Record<string, string>> = [
  { intent: "create-chapter", title: "Guard matrix chapter" },
  { intent: "update-chapter", id: "chapter-guard", revision: "1", title: "Defaced", published: "on" },
  { intent: "delete-chapter", id: "chapter-guard" },
  { intent: "add-section", chapterId: "chapter-guard", type: "text", content: "Injected" },
  { intent: "update-section", id: "section-guard", revision: "1", type: "text", content: "Defaced" },
  { intent: "delete-section", id: "section-guard" },
  { intent: "move-section", id: "section-guard", direction: "down", listRevision: "0" },
  { intent: "create-tip", title: "Injected tip", category: "AWS" },
  { intent: "update-tip", id: "tip-guard", revision: "1", title: "Defaced", category: "AWS" },
  { intent: "delete-tip", id: "tip-guard" },
  { intent: "create-resource", name: "Injected", url: "https://evil.example/" },
  { intent: "delete-resource", id: "resource-guard" },
  { intent: "create-certification", name: "Injected certification" },
  { intent: "delete-certification", id: "cert-guard" },
  { intent: "create-skill", name: "Injected skill", level: "50" },
  { intent: "save-about-content", "about_name.revision": "0", "about_name.value": "Defaced" },
  { intent: "save-site-settings", "linkedin_url.revision": "0", "linkedin_url.value": "https://evil.example/" },
  { intent: "save-home-page", "hero_headline.revision": "0", "hero_headline.value": "Defaced" },
  {
    intent: "save-settings",
    "auto_send_enabled.revision": "0",
    "auto_send_enabled.value": "on",
    "welcome_email_subject.revision": "0",
    "welcome_email_subject.value": "x",
    "welcome_email_body.revision": "0",
    "welcome_email_body.value": "y",
  },
  { intent: "add-suppression", email: "guard-matrix@example.com" },
  { intent: "invite", email: "guard-matrix@example.com", role: "admin" },
];
const HARMFUL_INTENTS = [HARMFUL_FORM, ...HARMFUL_FIELDS.map((fields) => new URLSearchParams(fields).toString())];

function label(route: FlatRoute): string {
  return `${route.path} (${route.file})`;
}

describe("the admin route table", () => {
  it("is read from app/routes.ts and holds every admin screen of the spec", () => {
    const paths = ADMIN_ROUTES.map((route) => route.path);
    for (const path of [
      "/admin",
      "/admin/home",
      "/admin/newsletter",
      "/admin/tips",
      "/admin/resources",
      "/admin/projects",
      "/admin/about",
      "/admin/settings",
      "/admin/users",
      "/admin/account",
    ]) {
      expect(paths).toContain(path);
    }
  });

  it.each(ADMIN_ROUTES.map((route) => [label(route), route] as const))(
    "%s is nested in the guarded admin layout",
    (_name, route) => {
      // The layout's middleware is the guard: a route outside it would be unguarded.
      expect(route.ancestors, `${route.file} must be a child of ${ADMIN_LAYOUT} in app/routes.ts`).toContain(
        ADMIN_LAYOUT,
      );
    },
  );

  it("nests nothing but /admin pages in the admin layout", () => {
    const nested = ROUTE_TABLE.filter((route) => route.ancestors.includes(ADMIN_LAYOUT));
    expect(nested.length).toBeGreaterThan(0);
    for (const route of nested) expect(isUnder(route.path, "/admin"), label(route)).toBe(true);
  });
});

/**
 * Other spellings of a path that the router matches to the same route (it matches
 * case-insensitively and percent-decoded): upper case, a trailing slash, and the first
 * letter of the last segment percent-encoded.
 */
function spellings(path: string): string[] {
  const last = path.lastIndexOf("/");
  const encoded = `${path.slice(0, last + 1)}%${path.charCodeAt(last + 1).toString(16)}${path.slice(last + 2)}`;
  return [path.toUpperCase(), `${path}/`, encoded];
}

/**
 * A GET of another spelling is refused, or redirected to the path itself
 * (server/http/canonical-path.ts), which is refused in its own test.
 */
function expectRefusedOrRedirected(response: RawResponse, variant: string, path: string) {
  expect([301, 403, 404], `${variant} answered ${response.status}`).toContain(response.status);
  if (response.status === 301) expect(header(response, "location")).toBe(path);
}

function expectRedirectToSignIn(response: RawResponse, path: string) {
  expect(response.status, `status of ${path}`).toBe(302);
  const location = new URL(header(response, "location") ?? "", "http://bastion.invalid");
  expect(location.pathname).toBe("/auth");
  expect(location.searchParams.get("redirectTo")).toBe(path);
}

describe.each(TEST_DIALECTS)("the admin guard on %s", (dialect) => {
  let site: SiteWithAccounts;
  let database: DatabaseHandle;
  let base: string;
  const cookies: Record<keyof typeof ACCOUNTS, string> = { admin: "", editor: "", noRole: "" };
  let before: DatabaseSnapshot;

  beforeAll(async () => {
    site = await startSiteWithAccounts({
      dialect,
      accounts: Object.values(ACCOUNTS),
      // Content that a harmful action could delete or change.
      seed: async ({ db }) => {
        await db
          .insertInto("chapters")
          .values({ id: "chapter-guard", slug: "guard", title: "Guard", number: 1, order_index: 0 })
          .execute();
        await db
          .insertInto("tips_resources")
          .values({ id: "tip-guard", category: "AWS", title: "Guard tip" })
          .execute();
        await db
          .insertInto("resources")
          .values({ id: "resource-guard", name: "Guard resource", url: "https://example.com/" })
          .execute();
        await db
          .insertInto("chapter_sections")
          .values({ id: "section-guard", chapter_id: "chapter-guard", type: "text", content: "Guard", order_index: 0 })
          .execute();
        await db
          .insertInto("certifications")
          .values({ id: "cert-guard", name: "Guard certification", order_index: 0 })
          .execute();
      },
    });
    base = site.server.url;
    for (const key of Object.keys(ACCOUNTS) as Array<keyof typeof ACCOUNTS>) {
      cookies[key] = await signIn(base, ACCOUNTS[key].email);
    }
    database = await site.openDatabase();
    before = await snapshotDatabase(database);
  });

  afterAll(async () => {
    await database?.close();
    await site?.stop();
  });

  const get = (path: string, cookie?: string) =>
    request(`${base}${path}`, { headers: { Accept: "text/html", ...(cookie ? { Cookie: cookie } : {}) } });

  const post = (path: string, cookie?: string, form = HARMFUL_FORM) =>
    request(`${base}${path}`, {
      method: "POST",
      headers: {
        Origin: base,
        "Content-Type": "application/x-www-form-urlencoded",
        "Content-Length": String(Buffer.byteLength(form)),
        ...(cookie ? { Cookie: cookie } : {}),
      },
      body: form,
    });

  /** Every harmful intent posted to the path: the answers, each labelled with its form. */
  async function postEveryIntent(path: string, cookie?: string): Promise<Array<[string, RawResponse]>> {
    const answers: Array<[string, RawResponse]> = [];
    for (const form of HARMFUL_INTENTS) answers.push([`POST ${path} ${form}`, await post(path, cookie, form)]);
    return answers;
  }

  /** React Router's data request for a page: what a client-side navigation fetches. */
  const getData = (path: string, cookie?: string) =>
    request(`${base}${path === "/" ? "/_" : path}.data`, { headers: cookie ? { Cookie: cookie } : {} });

  /** The page, and for an index route the same URL addressed to the index route's action. */
  function postTargets(route: FlatRoute): string[] {
    const path = concretePath(route.path);
    return route.index ? [path, `${path}?index`] : [path];
  }

  const pages = ADMIN_ROUTES.map((route) => [label(route), route] as const);
  const adminOnly = ADMIN_ROUTES.filter((route) => requiredRoleForPath(route.path) === "admin").map(
    (route) => [label(route), route] as const,
  );
  const contentPages = ADMIN_ROUTES.filter((route) => requiredRoleForPath(route.path) === "editor").map(
    (route) => [label(route), route] as const,
  );

  describe("anonymous", () => {
    it.each(pages)("GET %s redirects to /auth with redirectTo", async (_name, route) => {
      const path = concretePath(route.path);
      const response = await get(path);
      expectRedirectToSignIn(response, path);
      expect(header(response, "cache-control")).toBe("private, no-store");
    });

    it.each(pages)("POST %s redirects to /auth and runs no action", async (_name, route) => {
      for (const target of postTargets(route)) {
        for (const [, response] of await postEveryIntent(target)) expectRedirectToSignIn(response, target);
      }
    });

    it.each(pages)("the data request of %s returns no data, only the redirect", async (_name, route) => {
      const path = concretePath(route.path);
      const response = await getData(path);
      // React Router answers a redirect of a data request with 202 and the target.
      expect(response.status).toBe(202);
      expect(response.text()).toContain(`/auth?redirectTo=${encodeURIComponent(path)}`);
    });
  });

  describe("a signed-in user without a role", () => {
    it.each(pages)("GET %s is 403 Access Denied", async (_name, route) => {
      const response = await get(concretePath(route.path), cookies.noRole);
      expect(response.status).toBe(403);
      expect(header(response, "cache-control")).toBe("private, no-store");
      const html = response.text();
      expect(html).toContain("Access Denied");
      expect(html).toContain("permission to access the admin dashboard");
    });

    it.each(pages)("POST %s is 403", async (_name, route) => {
      for (const target of postTargets(route)) {
        for (const [form, response] of await postEveryIntent(target, cookies.noRole)) {
          expect(response.status, form).toBe(403);
        }
      }
    });

    it.each(pages)("the data request of %s is 403", async (_name, route) => {
      expect((await getData(concretePath(route.path), cookies.noRole)).status).toBe(403);
    });
  });

  describe("an editor on admin-only screens", () => {
    it.each(adminOnly)("GET %s is 403 Admin privileges are required.", async (_name, route) => {
      const response = await get(concretePath(route.path), cookies.editor);
      expect(response.status).toBe(403);
      const html = response.text();
      expect(html).toContain("Access Denied");
      expect(html).toContain("Admin privileges are required.");
    });

    it.each(adminOnly)("POST %s is 403", async (_name, route) => {
      for (const target of postTargets(route)) {
        for (const [form, response] of await postEveryIntent(target, cookies.editor)) {
          expect(response.status, form).toBe(403);
        }
      }
    });

    it.each(adminOnly)("the data request of %s is 403", async (_name, route) => {
      expect((await getData(concretePath(route.path), cookies.editor)).status).toBe(403);
    });

    it.each(adminOnly)("%s is 403 however its URL is spelled", async (_name, route) => {
      const path = concretePath(route.path);
      for (const variant of spellings(path)) {
        // The router matches these to the same page; they must not slip past the guard.
        expectRefusedOrRedirected(await get(variant, cookies.editor), variant, path);
        expect((await post(variant, cookies.editor)).status, `POST ${variant}`).not.toBeLessThan(400);
      }
    });
  });

  describe("an editor on content screens", () => {
    it.each(contentPages)("GET %s is 200", async (_name, route) => {
      const response = await get(concretePath(route.path), cookies.editor);
      expect(response.status).toBe(200);
      expect(header(response, "cache-control")).toBe("private, no-store");
    });

    it.each(contentPages)("the data request of %s is 200", async (_name, route) => {
      expect((await getData(concretePath(route.path), cookies.editor)).status).toBe(200);
    });
  });

  describe("an admin", () => {
    it.each(pages)("GET %s is 200, never cached", async (_name, route) => {
      const response = await get(concretePath(route.path), cookies.admin);
      expect(response.status).toBe(200);
      expect(header(response, "cache-control")).toBe("private, no-store");
    });
  });

  describe("admin API", () => {
    const endpoints = ADMIN_API_ROUTES.map((route) => [label(route), route] as const);

    it("covers every admin endpoint of the API", () => {
      expect(ADMIN_API_ROUTES.map((route) => route.path).sort()).toEqual([
        "/api/admin/newsletter/export.csv",
        "/api/media",
        "/api/media/import",
        "/api/newsletter/test-email",
      ]);
    });

    it.each(endpoints)("%s answers 401 without a session", async (_name, route) => {
      const path = concretePath(route.path);
      expect((await request(`${base}${path}`)).status).toBe(401);
      expect((await post(path)).status).toBe(401);
    });

    it.each(endpoints)("%s answers 403 to a user without a role", async (_name, route) => {
      const path = concretePath(route.path);
      expect((await request(`${base}${path}`, { headers: { Cookie: cookies.noRole } })).status).toBe(403);
      expect((await post(path, cookies.noRole)).status).toBe(403);
    });

    it.each(endpoints.filter(([, route]) => requiredRoleForPath(route.path) === "editor"))(
      "%s lets an editor through, and refuses the harmful form as input",
      async (_name, route) => {
        const path = concretePath(route.path);
        const read = await request(`${base}${path}`, { headers: { Cookie: cookies.editor } });
        expect([200, 405], `GET ${path} answered ${read.status}`).toContain(read.status);
        expect((await post(path, cookies.editor)).status).toBe(400);
      },
    );

    it.each(endpoints.filter(([, route]) => requiredRoleForPath(route.path) === "admin"))(
      "%s answers 403 to an editor, however its URL is spelled",
      async (_name, route) => {
        const path = concretePath(route.path);
        expect((await request(`${base}${path}`, { headers: { Cookie: cookies.editor } })).status).toBe(403);
        expect((await post(path, cookies.editor)).status).toBe(403);
        for (const variant of spellings(path)) {
          const response = await request(`${base}${variant}`, { headers: { Cookie: cookies.editor } });
          expect([403, 404], `${variant} answered ${response.status}`).toContain(response.status);
          expect((await post(variant, cookies.editor)).status, `POST ${variant}`).not.toBeLessThan(400);
        }
      },
    );
  });

  // Last: every refused request above, and the admin's reads, left the data as it was.
  it("changed no data in any table", async () => {
    const after = await snapshotDatabase(database);
    expect(rowCounts(after)).toEqual(rowCounts(before));
    expect(after).toEqual(before);
  });

  // After the check above: the refused forms were real, since the editor's own do harm.
  it("would have done harm: the same forms from an editor change the rows they aim at", async () => {
    const byIntent = (intent: string) => HARMFUL_INTENTS.find((form) => form.startsWith(`intent=${intent}&`)) as string;
    const done = [
      await post("/admin/projects", cookies.editor, byIntent("update-chapter")),
      await post("/admin/tips", cookies.editor, byIntent("delete-tip")),
      await post("/admin/resources", cookies.editor, byIntent("delete-resource")),
      await post("/admin/about", cookies.editor, byIntent("delete-certification")),
    ];
    expect(done.map((response) => response.status)).toEqual([200, 200, 200, 200]);
    const chapter = await database.db
      .selectFrom("chapters")
      .select("title")
      .where("id", "=", "chapter-guard")
      .execute();
    expect(chapter).toEqual([{ title: "Defaced" }]);
    for (const [table, id] of [
      ["tips_resources", "tip-guard"],
      ["resources", "resource-guard"],
      ["certifications", "cert-guard"],
    ] as const) {
      expect(await database.db.selectFrom(table).select("id").where("id", "=", id).execute(), table).toEqual([]);
    }
  });
});
