import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../tests/helpers/server.ts";
import {
  closeBrowser,
  DESKTOP_VIEWPORT,
  expectNoAxeViolations,
  launchBrowser,
  MOBILE_VIEWPORT,
  textOf,
  waitForPageScript,
  withPage,
} from "./helpers/browser.ts";

/**
 * Top navigation and the mobile menu in a real browser, with JavaScript on and off
 * (every public page must work without it). Every page visited is checked with axe.
 */

const NAV_ITEMS = [
  { label: "Home", path: "/", heading: /\S/ },
  { label: "Projects", path: "/projects", heading: /Projects/ },
  { label: "Tips & Tricks", path: "/blog", heading: /Tips & Tricks/ },
  { label: "Resources", path: "/resources", heading: /Resources/ },
  { label: "About", path: "/about", heading: /\S/ },
] as const;

let server: RunningServer;

beforeAll(async () => {
  [server] = await Promise.all([startServer(), launchBrowser()]);
});

afterAll(async () => {
  await closeBrowser();
  await server?.stop();
});

function exactly(text: string): RegExp {
  return new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*$`);
}

async function linksOf(nav: Locator): Promise<{ label: string; href: string | null }[]> {
  const links = await nav.getByRole("link").all();
  return Promise.all(links.map(async (link) => ({ label: await textOf(link), href: await link.getAttribute("href") })));
}

/** Waits until the page shows `item` as the current page of `nav`, and checks its heading. */
async function expectOnPage(page: Page, nav: Locator, item: (typeof NAV_ITEMS)[number]): Promise<void> {
  await page.waitForURL(`${server.url}${item.path}`);
  await nav
    .locator('a[aria-current="page"]')
    .filter({ hasText: exactly(item.label) })
    .waitFor({ state: "attached" });
  const current = await nav.locator('a[aria-current="page"]').all();
  expect(current, "exactly one link is marked as the current page").toHaveLength(1);
  expect(await current[0]?.getAttribute("href")).toBe(item.path);

  const heading = page.getByRole("heading", { level: 1 });
  await heading.first().waitFor();
  expect(await heading.count(), "one h1 per page").toBe(1);
  expect(await textOf(heading)).toMatch(item.heading);
}

describe.each([
  { javaScript: "on", javaScriptEnabled: true },
  { javaScript: "off", javaScriptEnabled: false },
])("navigation with JavaScript $javaScript", ({ javaScriptEnabled }) => {
  it("desktop: the primary nav links every page and marks the current one", async () => {
    await withPage({ javaScriptEnabled, viewport: DESKTOP_VIEWPORT }, async ({ page }) => {
      const response = await page.goto(`${server.url}/`);
      expect(response?.status()).toBe(200);
      const nav = page.getByTestId("primary-nav");
      expect(await nav.isVisible()).toBe(true);
      expect(await page.getByTestId("mobile-menu-toggle").isVisible()).toBe(false);
      expect(await linksOf(nav)).toEqual(NAV_ITEMS.map(({ label, path }) => ({ label, href: path })));
      await expectOnPage(page, nav, NAV_ITEMS[0]);
      await expectNoAxeViolations(page);

      for (const item of [...NAV_ITEMS.slice(1), NAV_ITEMS[0]]) {
        await nav.getByRole("link", { name: item.label, exact: true }).click();
        await expectOnPage(page, nav, item);
        await expectNoAxeViolations(page);
        if (javaScriptEnabled) {
          // The public pages are not hydrated (decision 009): no React runtime, but their
          // script, loaded after the page, runs under the CSP on every one of them.
          await page.waitForFunction(() => document.documentElement.classList.contains("js"));
          expect(await page.evaluate(() => "__reactRouterContext" in window), "no React runtime").toBe(false);
        }
      }
    });
  });

  it("keyboard: Tab reaches the skip link first, then the nav links", async () => {
    await withPage({ javaScriptEnabled, viewport: DESKTOP_VIEWPORT }, async ({ page }) => {
      await page.goto(`${server.url}/about`);

      await page.keyboard.press("Tab");
      const skipLink = page.locator(":focus");
      expect(await textOf(skipLink)).toMatch(/skip to (main )?content/i);
      expect(await skipLink.getAttribute("href")).toBe("#main");
      const box = await skipLink.boundingBox();
      expect(box && box.width > 1 && box.height > 1, "the focused skip link is visible").toBe(true);

      const reached: string[] = [];
      for (let presses = 0; presses < 12 && reached.length < NAV_ITEMS.length; presses++) {
        await page.keyboard.press("Tab");
        const focused = page.locator(":focus");
        const inNav = await focused.evaluate((element) => Boolean(element.closest('[data-testid="primary-nav"]')));
        if (inNav) reached.push(await textOf(focused));
      }
      expect(reached).toEqual(NAV_ITEMS.map((item) => item.label));

      // The skip link moves the focus to the main content, not only the scroll position.
      await page.goto(`${server.url}/about`);
      await page.keyboard.press("Tab");
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => document.activeElement?.id === "main");
    });
  });

  it("mobile: the menu toggle opens and closes the mobile nav, and its links work", async () => {
    await withPage({ javaScriptEnabled, viewport: MOBILE_VIEWPORT }, async ({ page }) => {
      await page.goto(`${server.url}/`);
      await waitForPageScript(page);
      const toggle = page.getByTestId("mobile-menu-toggle");
      const mobileNav = page.getByTestId("mobile-nav");
      expect(await page.getByTestId("primary-nav").isVisible(), "primary nav hidden on mobile").toBe(false);
      expect(await toggle.isVisible()).toBe(true);
      expect(await mobileNav.isVisible()).toBe(false);
      await expectNoAxeViolations(page);

      await toggle.click();
      await mobileNav.waitFor({ state: "visible" });
      expect(await linksOf(mobileNav)).toEqual(NAV_ITEMS.map(({ label, path }) => ({ label, href: path })));
      for (const item of NAV_ITEMS) {
        expect(await mobileNav.getByRole("link", { name: item.label, exact: true }).isVisible()).toBe(true);
      }
      await expectNoAxeViolations(page);

      await toggle.click();
      await mobileNav.waitFor({ state: "hidden" });

      if (javaScriptEnabled) {
        // With JavaScript, Escape closes the open menu and gives the focus back to the toggle.
        await toggle.click();
        await mobileNav.waitFor({ state: "visible" });
        await page.keyboard.press("Escape");
        await mobileNav.waitFor({ state: "hidden" });
        expect(await toggle.evaluate((element) => element === document.activeElement)).toBe(true);

        // Tab past the menu's last link closes it: left open, it would cover what has the focus.
        await toggle.click();
        await mobileNav.waitFor({ state: "visible" });
        await mobileNav.getByRole("link").last().focus();
        await page.keyboard.press("Tab");
        await mobileNav.waitFor({ state: "hidden" });
        expect(await mobileNav.evaluate((nav) => nav.contains(document.activeElement))).toBe(false);
      }

      await toggle.click();
      await mobileNav.waitFor({ state: "visible" });
      const blog = NAV_ITEMS[2];
      await mobileNav.getByRole("link", { name: blog.label, exact: true }).click();
      await expectOnPage(page, mobileNav, blog);
      // The menu is closed on the page the link led to.
      await mobileNav.waitFor({ state: "hidden" });
      expect(await page.getByTestId("primary-nav").isVisible()).toBe(false);
      await expectNoAxeViolations(page);
    });
  });
});
