import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareDatabase } from "../server/db/setup.ts";
import { createLogger } from "../server/logger.ts";
import { type RunningServer, startServer } from "../tests/helpers/server.ts";
import { closeBrowser, expectNoAxeViolations, launchBrowser, textOf, withPage } from "./helpers/browser.ts";

/**
 * The public shell around every page (footer), the 404 page and the remaining public
 * pages, in a real browser with JavaScript on and off; axe checks every page visited.
 */

const LINKEDIN_URL = "https://www.linkedin.com/in/bastion-e2e-profile";

let server: RunningServer;
let dataDir: string;

beforeAll(async () => {
  // The setting is written before the server starts, as an admin would have saved it.
  dataDir = mkdtempSync(path.join(tmpdir(), "bastion-e2e-"));
  const database = await prepareDatabase(
    { kind: "sqlite", file: path.join(dataDir, "bastion.sqlite") },
    createLogger({ level: "silent" }),
  );
  try {
    await database.db
      .updateTable("site_settings")
      .set({ setting_value: LINKEDIN_URL })
      .where("setting_key", "=", "linkedin_url")
      .execute();
  } finally {
    await database.close();
  }
  [server] = await Promise.all([startServer({ dataDir }), launchBrowser()]);
});

afterAll(async () => {
  await closeBrowser();
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe.each([
  { javaScript: "on", javaScriptEnabled: true },
  { javaScript: "off", javaScriptEnabled: false },
])("public pages with JavaScript $javaScript", ({ javaScriptEnabled }) => {
  it("footer: Projects & Courses link, the LinkedIn profile from the settings, the current year", async () => {
    await withPage({ javaScriptEnabled }, async ({ page }) => {
      await page.goto(`${server.url}/`);
      const footer = page.locator("footer");
      await footer.waitFor();

      const projects = footer.getByRole("link", { name: "Projects & Courses", exact: true });
      expect(await projects.getAttribute("href")).toBe("/projects");

      const linkedin = page.getByTestId("footer-linkedin");
      expect(await linkedin.isVisible()).toBe(true);
      expect(await linkedin.getAttribute("href")).toBe(LINKEDIN_URL);
      // It opens in a new tab without handing the opener to the other site.
      expect(await linkedin.getAttribute("target")).toBe("_blank");
      expect(await linkedin.getAttribute("rel")).toMatch(/noopener/);

      expect(await textOf(footer)).toContain(`© ${new Date().getFullYear()}`);
      await expectNoAxeViolations(page);

      await projects.click();
      await page.waitForURL(`${server.url}/projects`);
      await page.getByRole("heading", { level: 1 }).waitFor();
      await expectNoAxeViolations(page);
    });
  });

  it("404: an unknown path shows Oops! Page not found with a way home", async () => {
    await withPage({ javaScriptEnabled }, async ({ page }) => {
      const response = await page.goto(`${server.url}/nope`);
      expect(response?.status()).toBe(404);
      const heading = page.getByRole("heading", { level: 1 });
      expect(await textOf(heading)).toBe("Oops! Page not found");
      // The shell stays, so the visitor can navigate on.
      expect(await page.getByTestId("primary-nav").isVisible()).toBe(true);
      await expectNoAxeViolations(page);

      const home = page.getByRole("link", { name: "Return to Home" });
      expect(await home.getAttribute("href")).toBe("/");
      await home.click();
      await page.waitForURL(`${server.url}/`);
      await page.getByTestId("primary-nav").locator('a[aria-current="page"][href="/"]').waitFor({ state: "attached" });
      await expectNoAxeViolations(page);
    });
  });

  it("sign-in page: renders with its heading", async () => {
    await withPage({ javaScriptEnabled }, async ({ page }) => {
      const response = await page.goto(`${server.url}/auth`);
      expect(response?.status()).toBe(200);
      expect(await textOf(page.getByRole("heading", { level: 1 }))).toMatch(/sign in/i);
      await expectNoAxeViolations(page);
    });
  });
});
