import { sql } from "kysely";
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { addDays, utcDay } from "../server/analytics/days.ts";
import { TEST_PASSWORD } from "../tests/helpers/accounts.ts";
import { checkState, chooseTheme, expectKeyboardDialog, expectNoSideScroll, LOOKS } from "./helpers/admin-screens.ts";
import { DESKTOP_VIEWPORT, expectNoAxeViolations, MOBILE_VIEWPORT, textOf, withPage } from "./helpers/browser.ts";
import { visit, waitForHydration } from "./helpers/hydration.ts";
import { setUpSignedInSite } from "./helpers/signed-in-site.ts";

/**
 * The admin shell and dashboard in a real browser: the guard's redirects (the sign-in
 * page with and without JavaScript) and Access Denied pages, the sidebar per role, the
 * drawer on small screens (a dialog used from the keyboard), the account menu and Sign
 * Out, the session check, and the dashboard's real counters; every state in the light
 * theme at 1280 px and the dark theme at 390 px, with axe.
 */

const ACCOUNTS = {
  admin: { email: "ada@example.com", name: "Ada Lovelace", role: "admin" as const },
  editor: { email: "eddie@example.com", name: "Eddie Editor", role: "editor" as const },
  noRole: { email: "nora@example.com", name: "Nora Norole", role: null },
  /** An admin without a name: greeted as "Admin", shown by email. */
  nameless: { email: "owner@example.com", name: "", role: "admin" as const },
};

const ALL_ITEMS = [
  "Dashboard",
  "Home",
  "Newsletter",
  "Projects & Courses",
  "Media",
  "Tips & Tricks",
  "Resources",
  "About",
  "Site Settings",
  "Users",
  "Account",
];
const ADMIN_ONLY_ITEMS = ["Newsletter", "Site Settings", "Users"];

const adminSite = setUpSignedInSite({
  accounts: ACCOUNTS,
  subnet: "10.0.0",
  seed: async ({ db }) => {
    const today = utcDay(new Date());
    await db
      .insertInto("chapters")
      .values([
        { id: "chapter-1", slug: "one", title: "One", number: 1, order_index: 0, published: true },
        { id: "chapter-2", slug: "two", title: "Two", number: 2, order_index: 1, published: true },
        { id: "chapter-3", slug: "three", title: "Three", number: 3, order_index: 2, published: true },
        { id: "chapter-4", slug: "draft", title: "Draft", number: 4, order_index: 3, published: false },
      ])
      .execute();
    await db
      .insertInto("tips_resources")
      .values([
        { id: "tip-1", category: "AWS", title: "Tip one" },
        { id: "tip-2", category: "Career", title: "Tip two" },
      ])
      .execute();
    await db
      .insertInto("resources")
      .values(
        [1, 2, 3, 4].map((n) => ({ id: `resource-${n}`, name: `Resource ${n}`, url: `https://example.com/${n}` })),
      )
      .execute();
    await db
      .insertInto("page_views")
      .values([
        { day: today, path: "/", views: 5 },
        { day: addDays(today, -3), path: "/blog", views: 2 },
        // In the chart, not in this week.
        { day: addDays(today, -10), path: "/about", views: 7 },
        // Older than the chart.
        { day: addDays(today, -40), path: "/", views: 100 },
      ])
      .execute();
  },
});

async function labelsOf(nav: Locator): Promise<string[]> {
  return Promise.all((await nav.getByRole("link").all()).map((link) => textOf(link)));
}

async function currentItem(nav: Locator): Promise<string[]> {
  return Promise.all((await nav.locator('a[aria-current="page"]').all()).map((link) => textOf(link)));
}

describe.each([
  { javaScript: "on", javaScriptEnabled: true },
  { javaScript: "off", javaScriptEnabled: false },
])("the guard with JavaScript $javaScript", ({ javaScriptEnabled }) => {
  it("sends anonymous visitors to /auth, and back to the page after signing in there", async () => {
    await withPage({ javaScriptEnabled }, async ({ page }) => {
      await page.goto(`${adminSite.base}/admin`);
      expect(new URL(page.url()).pathname).toBe("/auth");
      expect(new URL(page.url()).searchParams.get("redirectTo")).toBe("/admin");

      await page.goto(`${adminSite.base}/admin/settings`);
      expect(new URL(page.url()).pathname).toBe("/auth");
      expect(new URL(page.url()).searchParams.get("redirectTo")).toBe("/admin/settings");

      const form = page.getByTestId("sign-in-form");
      await form.getByLabel("Email").fill(ACCOUNTS.admin.email);
      await form.getByLabel("Password").fill(TEST_PASSWORD);
      await form.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("heading", { level: 1, name: "Site Settings" }).waitFor();
      expect(new URL(page.url()).pathname).toBe("/admin/settings");
      expect(await currentItem(page.getByTestId("admin-sidebar"))).toEqual(["Site Settings"]);
    });
  });
});

/**
 * Access Denied of a page load comes from the root's error boundary, before any loader
 * ran: it follows the system's colour scheme (emulated here), not the theme cookie.
 */
async function expectAccessDeniedLooksRight(page: Page) {
  await expectNoSideScroll(page, "Access Denied");
  await expectNoAxeViolations(page);
}

async function openDrawer(page: Page): Promise<Locator> {
  await page.getByTestId("admin-drawer-toggle").click();
  const drawer = page.getByTestId("admin-drawer-nav");
  await drawer.waitFor();
  return drawer;
}

describe.each(LOOKS)("the guard's Access Denied in the $theme colour scheme", ({ theme, viewport }) => {
  it("shows Access Denied to an editor on an admin-only page, keeping the editor's shell", async () => {
    await withPage({ viewport }, async (testPage) => {
      const page = await adminSite.signedIn(testPage, "editor");
      await testPage.page.emulateMedia({ colorScheme: theme });
      const response = await page.goto(`${adminSite.base}/admin/settings`);
      expect(response?.status()).toBe(403);
      expect(await textOf(page.getByRole("heading", { level: 1 }))).toBe("Access Denied");
      expect(await textOf(page.getByTestId("access-denied-reason"))).toBe("Admin privileges are required.");
      const sidebar = page.getByTestId("admin-sidebar");
      await waitForHydration(page);
      const nav = viewport === MOBILE_VIEWPORT ? await openDrawer(page) : sidebar;
      expect(await labelsOf(nav)).toEqual(ALL_ITEMS.filter((item) => !ADMIN_ONLY_ITEMS.includes(item)));
      if (viewport === MOBILE_VIEWPORT) await page.keyboard.press("Escape");
      await expectAccessDeniedLooksRight(page);

      await page.getByRole("link", { name: "Back to Dashboard" }).click();
      await page.getByRole("heading", { level: 1, name: "Welcome back, Eddie Editor" }).waitFor();
      expect(new URL(page.url()).pathname).toBe("/admin");
    });
  });

  it("shows Access Denied to a signed-in user without a role", async () => {
    await withPage({ viewport }, async (testPage) => {
      const page = await adminSite.signedIn(testPage, "noRole");
      await testPage.page.emulateMedia({ colorScheme: theme });
      const response = await page.goto(`${adminSite.base}/admin`);
      expect(response?.status()).toBe(403);
      expect(await textOf(page.getByRole("heading", { level: 1 }))).toBe("Access Denied");
      expect(await textOf(page.getByTestId("access-denied-reason"))).toBe(
        "You don't have permission to access the admin dashboard.",
      );
      // No admin screens to offer.
      expect(await page.getByTestId("admin-sidebar").count()).toBe(0);
      await expectAccessDeniedLooksRight(page);
    });
  });
});

describe("an admin on a desktop", () => {
  it("sees the full sidebar, the header and the dashboard's real numbers", async () => {
    await withPage({ viewport: DESKTOP_VIEWPORT }, async (testPage) => {
      const page = await adminSite.signedIn(testPage, "admin");
      const response = await page.goto(`${adminSite.base}/admin`);
      expect(response?.status()).toBe(200);

      const sidebar = page.getByTestId("admin-sidebar");
      expect(await sidebar.isVisible()).toBe(true);
      expect(await labelsOf(sidebar)).toEqual(ALL_ITEMS);
      expect(await currentItem(sidebar)).toEqual(["Dashboard"]);
      expect(await page.getByTestId("admin-drawer-toggle").isVisible()).toBe(false);

      expect(await textOf(page.getByRole("heading", { level: 1 }))).toBe("Welcome back, Ada Lovelace");
      expect(await textOf(page.getByTestId("role-label"))).toBe("Administrator");
      expect(await textOf(page.getByTestId("stat-chaptersPublished-value"))).toBe("3");
      expect(await textOf(page.getByTestId("stat-postsPublished-value"))).toBe("2");
      expect(await textOf(page.getByTestId("stat-resourcesAdded-value"))).toBe("4");
      expect(await textOf(page.getByTestId("stat-pageViewsThisWeek-value"))).toBe("7");
      expect(await page.getByTestId("page-views-table").locator("tbody tr").count()).toBe(30);
      expect(await textOf(page.getByTestId("page-views-summary"))).toMatch(/^14 public page views in the last 30 days/);

      const quickActions = page.getByTestId("getting-started");
      const links = await quickActions.getByRole("link").all();
      const targets = await Promise.all(
        links.map(async (link) => [await textOf(link.locator("span span").first()), await link.getAttribute("href")]),
      );
      expect(targets).toEqual([
        ["Create a post", "/admin/tips"],
        ["Create a chapter", "/admin/projects"],
        ["Add resources", "/admin/resources"],
        ["Configure settings", "/admin/settings"],
        ["Upload media", "/admin/media"],
      ]);

      const viewSite = page.getByTestId("view-site");
      expect(await viewSite.getAttribute("href")).toBe("/");
      expect(await viewSite.getAttribute("target")).toBe("_blank");
      expect(await viewSite.getAttribute("rel")).toContain("noopener");
      expect(await textOf(page.getByTestId("account-menu-toggle"))).toContain("A");
      expect(await textOf(page.getByTestId("account-menu-name"))).toBe("Ada Lovelace");
      await expectNoAxeViolations(page);

      // Client-side navigation: a marker on window survives it, the active item follows.
      await waitForHydration(page);
      await page.evaluate(() => Object.assign(window, { __bastionNoReload: true }));
      for (const item of ["Tips & Tricks", "Site Settings", "Dashboard"]) {
        await sidebar.getByRole("link", { name: item, exact: true }).click();
        await sidebar.locator('a[aria-current="page"]').filter({ hasText: item }).waitFor();
        expect(await currentItem(sidebar)).toEqual([item]);
        await expectNoAxeViolations(page);
      }
      expect(await page.evaluate(() => "__bastionNoReload" in window), "client-side navigation").toBe(true);
    });
  });

  it("shows a spinner while a navigation is pending", async () => {
    await withPage({ viewport: DESKTOP_VIEWPORT }, async (testPage) => {
      const page = await adminSite.signedIn(testPage, "admin");
      await visit(page, `${adminSite.base}/admin`);
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route(
        (url) => url.pathname === "/admin/resources.data",
        async (route) => {
          await held;
          await route.continue();
        },
      );
      const pending = page.getByTestId("navigation-pending").getByRole("status");
      expect(await pending.count()).toBe(0);
      await page.getByTestId("admin-sidebar").getByRole("link", { name: "Resources" }).click();
      await pending.waitFor();
      expect(await textOf(pending)).toBe("Loading page…");
      expect(await page.locator("main").getAttribute("aria-busy")).toBe("true");
      release();
      await page.waitForURL(`${adminSite.base}/admin/resources`);
      await pending.waitFor({ state: "detached" });
    });
  });

  it("opens the account menu from the keyboard", async () => {
    await withPage({ viewport: DESKTOP_VIEWPORT }, async (testPage) => {
      const page = await adminSite.signedIn(testPage, "admin");
      await visit(page, `${adminSite.base}/admin`);
      const toggle = page.getByTestId("account-menu-toggle");
      await toggle.focus();
      await page.keyboard.press("Enter");
      const signOut = page.getByTestId("account-menu").getByRole("menuitem", { name: "Sign Out" });
      await signOut.waitFor();
      expect(await textOf(page.getByTestId("account-menu-who"))).toContain("ada@example.com");
      // Arrow keys move through the items.
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("ArrowDown");
      await expect.poll(() => signOut.evaluate((element) => element === document.activeElement)).toBe(true);
      await page.keyboard.press("Escape");
      await signOut.waitFor({ state: "hidden" });
      await expect.poll(() => toggle.evaluate((element) => element === document.activeElement)).toBe(true);
    });
  });
});

describe("an editor", () => {
  it("sees the dashboard without admin-only items", async () => {
    await withPage({ viewport: DESKTOP_VIEWPORT }, async (testPage) => {
      const page = await adminSite.signedIn(testPage, "editor");
      await page.goto(`${adminSite.base}/admin`);
      expect(await textOf(page.getByTestId("role-label"))).toBe("Editor");
      const sidebar = page.getByTestId("admin-sidebar");
      const labels = await labelsOf(sidebar);
      for (const item of ADMIN_ONLY_ITEMS) expect(labels).not.toContain(item);
      expect(labels).toContain("Tips & Tricks");
      expect(
        await page
          .getByTestId("getting-started")
          .getByRole("link", { name: /Configure settings/ })
          .count(),
      ).toBe(0);
      await expectNoAxeViolations(page);
    });
  });
});

describe("the drawer on a small screen", () => {
  it("replaces the sidebar, navigates, and is a dialog used from the keyboard", async () => {
    await withPage({ viewport: MOBILE_VIEWPORT }, async (testPage) => {
      const page = await adminSite.signedIn(testPage, "admin");
      await visit(page, `${adminSite.base}/admin`);
      expect(await page.getByTestId("admin-sidebar").isVisible()).toBe(false);
      const toggle = page.getByTestId("admin-drawer-toggle");
      const drawer = page.getByTestId("admin-drawer-nav");
      expect(await toggle.isVisible()).toBe(true);
      expect(await drawer.isVisible()).toBe(false);

      await expectKeyboardDialog(page, toggle);

      await toggle.click();
      await drawer.waitFor();
      expect(await labelsOf(drawer)).toEqual(ALL_ITEMS);
      expect(await currentItem(drawer)).toEqual(["Dashboard"]);

      await drawer.getByRole("link", { name: "Projects & Courses" }).click();
      await page.getByRole("heading", { level: 1, name: "Projects & Courses" }).waitFor();
      expect(new URL(page.url()).pathname).toBe("/admin/projects");
      await drawer.waitFor({ state: "hidden" });

      await toggle.click();
      await drawer.waitFor();
      expect(await currentItem(drawer)).toEqual(["Projects & Courses"]);
      await page.getByRole("button", { name: "Close menu" }).click();
      await drawer.waitFor({ state: "hidden" });
    });
  });
});

describe.each(LOOKS)("the shell in the $theme theme", ({ theme, viewport }) => {
  it("has its dashboard, account menu and drawer accessible, without sideways scrolling", async () => {
    await withPage({ viewport }, async (testPage) => {
      const page = await adminSite.signedIn(testPage, "admin");
      await chooseTheme(testPage, adminSite.base, theme);
      await visit(page, `${adminSite.base}/admin`);
      await checkState(page, theme, "the dashboard");

      await page.getByTestId("account-menu-toggle").click();
      await page.getByTestId("account-menu").waitFor();
      await checkState(page, theme, "the account menu");
      await page.keyboard.press("Escape");

      if (viewport === MOBILE_VIEWPORT) {
        await openDrawer(page);
        await checkState(page, theme, "the drawer");
        await page.keyboard.press("Escape");
      }
    });
  });
});

describe("the session", () => {
  it("greets an admin without a name as Admin, and sends them to /auth once the session has ended", async () => {
    await withPage({ viewport: DESKTOP_VIEWPORT }, async (testPage) => {
      const page = await adminSite.signedIn(testPage, "nameless");
      await page.goto(`${adminSite.base}/admin/tips`);
      await page.getByTestId("admin-sidebar").getByRole("link", { name: "Dashboard" }).click();
      await page.getByRole("heading", { level: 1, name: "Welcome back, Admin" }).waitFor();
      expect(await textOf(page.getByTestId("account-menu-name"))).toBe("owner@example.com");

      // The session is revoked elsewhere; the page notices when it is next shown.
      const user = adminSite.site.users.get(ACCOUNTS.nameless.email);
      await adminSite.database((db) =>
        sql`delete from ${sql.table("session")} where ${sql.ref("userId")} = ${user?.id}`.execute(db),
      );
      await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
      await page.waitForURL((url) => url.pathname === "/auth");
      expect(new URL(page.url()).searchParams.get("redirectTo")).toBe("/admin");
    });
  });

  it("ends with Sign Out in the account menu", async () => {
    await withPage({ viewport: DESKTOP_VIEWPORT }, async (testPage) => {
      const page = await adminSite.signedIn(testPage, "editor");
      await visit(page, `${adminSite.base}/admin`);
      await page.getByTestId("account-menu-toggle").click();
      await page.getByTestId("account-menu").getByRole("menuitem", { name: "Sign Out" }).click();
      await page.waitForURL((url) => url.pathname === "/auth");
      await page.getByText("You have been signed out successfully.").first().waitFor();

      await page.goto(`${adminSite.base}/admin`);
      expect(new URL(page.url()).pathname).toBe("/auth");
      const cookies = await testPage.context.cookies(adminSite.base);
      expect(cookies.find((cookie) => cookie.name.endsWith("session_token"))?.value ?? "").toBe("");
    });
  });
});
