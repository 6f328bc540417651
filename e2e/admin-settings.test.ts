import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { TEST_DIALECTS } from "../tests/helpers/databases.ts";
import { checkState, chooseTheme, expectStaleSaveRefused, LOOKS, toast } from "./helpers/admin-screens.ts";
import { textOf, withPage } from "./helpers/browser.ts";
import { visit, waitForHydration } from "./helpers/hydration.ts";
import { setUpSignedInSite } from "./helpers/signed-in-site.ts";

/**
 * /admin/settings in a real browser, on both databases: for admins only (an editor
 * gets the guard's Access Denied), reached from the dashboard's Configure settings,
 * the LinkedIn and resume links saved with the spec's toast and shown at once as the
 * public About page's buttons (hidden when unset), unsafe links refused beside the
 * field and again by the action, a stale save refused with 409 and the form kept, and
 * the screen in both themes (light at 1280 px, dark at 390 px) with axe.
 */

const ACCOUNTS = {
  admin: { email: "ada@example.com", name: "Ada Lovelace", role: "admin" as const },
  editor: { email: "eddie@example.com", name: "Eddie Editor", role: "editor" as const },
};

const URL_MESSAGE = "Enter a URL starting with http:// or https://";
const STALE_SETTINGS =
  "These settings were changed by someone else since you opened them. Reload to see the latest version.";

/** The public About page's LinkedIn and resume buttons: name, text, href, target and rel (null when not shown). */
async function aboutButtons(page: Page, base: string) {
  await page.goto(`${base}/about`);
  const read = async (testId: string) => {
    const link = page.getByTestId(testId);
    if ((await link.count()) === 0) return null;
    return {
      name: await link.getAttribute("aria-label"),
      text: await textOf(link),
      href: await link.getAttribute("href"),
      target: await link.getAttribute("target"),
      rel: await link.getAttribute("rel"),
    };
  };
  return { linkedin: await read("about-linkedin"), resume: await read("about-resume") };
}

describe.each(TEST_DIALECTS)("/admin/settings on %s", (dialect) => {
  const site = setUpSignedInSite({ dialect, accounts: ACCOUNTS, subnet: "10.0.42" });

  it("is for admins: an editor gets Access Denied, and no Configure settings on the dashboard", async () => {
    await withPage({}, async (testPage) => {
      const page = await site.signedIn(testPage, "editor");
      const denied = await page.goto(`${site.base}/admin/settings`);
      expect(denied?.status()).toBe(403);
      expect(await textOf(page.getByRole("heading", { level: 1 }))).toBe("Access Denied");
      expect(await textOf(page.getByTestId("access-denied-reason"))).toBe("Admin privileges are required.");
      await visit(page, `${site.base}/admin`);
      expect(await page.getByRole("link", { name: /Configure settings/ }).count()).toBe(0);
    });
    const post = await site.postForm(
      "/admin/settings",
      { intent: "save-site-settings", "linkedin_url.revision": "1", "linkedin_url.value": "https://evil.example" },
      "editor",
    );
    expect(post.status).toBe(403);
  });

  it("an admin reaches it from Configure settings, saves both links, and the About page's buttons follow at once", async () => {
    await withPage({}, async (testPage) => {
      const page = await site.signedIn(testPage, "admin");
      await visit(page, `${site.base}/admin`);
      await page.getByRole("link", { name: /Configure settings/ }).click();
      await page.waitForURL(`${site.base}/admin/settings`);
      // A client-side navigation changes the URL before it renders: wait for the new page's heading.
      await page.getByRole("heading", { level: 1, name: "Site Settings" }).waitFor();
      await waitForHydration(page);
      expect(await textOf(page.getByRole("heading", { level: 1 }))).toBe("Site Settings");
      expect(await textOf(page.getByTestId("settings-coming-soon"))).toContain("Coming Soon");

      const form = page.getByTestId("site-settings-form");
      const linkedin = form.getByLabel("LinkedIn profile URL");
      const resume = form.getByLabel("Resume URL");
      expect(await linkedin.getAttribute("type")).toBe("url");
      expect(await resume.getAttribute("type")).toBe("url");
      expect(await resume.inputValue()).toBe("");

      // Unsafe links are refused beside the field before anything is sent.
      const posts: string[] = [];
      page.on("request", (request) => {
        if (request.method() === "POST") posts.push(request.url());
      });
      for (const unsafe of ["javascript:alert(1)", "data:text/html,<b>hi</b>"]) {
        await resume.fill(unsafe);
        await form.getByRole("button", { name: "Save Settings" }).click();
        await form.getByText(URL_MESSAGE).waitFor();
        expect(await resume.getAttribute("aria-invalid")).toBe("true");
      }
      expect(posts).toEqual([]);

      await linkedin.fill("https://www.linkedin.com/in/ada");
      await resume.fill(" https://ada.example/resume.pdf ");
      await form.getByRole("button", { name: "Save Settings" }).click();
      await toast(page, "Settings updated successfully!").waitFor();
      expect(posts).toHaveLength(1);
      expect(await aboutButtons(page, site.base)).toEqual({
        linkedin: {
          name: "Connect on LinkedIn (opens in a new tab)",
          text: "Connect on LinkedIn",
          href: "https://www.linkedin.com/in/ada",
          target: "_blank",
          rel: "noopener noreferrer",
        },
        resume: {
          name: "View Resume (opens in a new tab)",
          text: "View Resume",
          href: "https://ada.example/resume.pdf",
          target: "_blank",
          rel: "noopener noreferrer",
        },
      });

      // Emptied, a link is unset and its button hidden; the saved revisions came back, so this save is not stale.
      await visit(page, `${site.base}/admin/settings`);
      expect(await form.getByLabel("Resume URL").inputValue()).toBe("https://ada.example/resume.pdf");
      await form.getByLabel("Resume URL").fill("");
      await form.getByRole("button", { name: "Save Settings" }).click();
      await toast(page, "Settings updated successfully!").waitFor();
      await form.getByLabel("LinkedIn profile URL").fill("");
      // The first save's toast may still show: wait for this save's answer, since leaving
      // the page before it arrives would cancel the save.
      const saved = page.waitForResponse((response) => response.request().method() === "POST");
      await form.getByRole("button", { name: "Save Settings" }).click();
      expect((await saved).ok()).toBe(true);
      await expect.poll(async () => (await aboutButtons(page, site.base)).linkedin).toBeNull();
      expect((await aboutButtons(page, site.base)).resume).toBeNull();
    });
  });

  it("the action checks the links again, whatever the browser sent", async () => {
    const post = (fields: Record<string, string>) =>
      site.postForm("/admin/settings", { intent: "save-site-settings", ...fields }, "admin");
    const before = await site.database((db) =>
      db.selectFrom("site_settings").selectAll().orderBy("setting_key").execute(),
    );
    const revision = (key: string) => String(before.find((row) => row.setting_key === key)?.revision);
    for (const unsafe of ["javascript:alert(1)", "data:text/html,x", "/resume.pdf"]) {
      const refused = await post({
        "linkedin_url.revision": revision("linkedin_url"),
        "linkedin_url.value": "https://www.linkedin.com/in/ada",
        "resume_url.revision": revision("resume_url"),
        "resume_url.value": unsafe,
      });
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain(`Failed to update settings: ${URL_MESSAGE}`);
    }
    expect(
      await site.database((db) => db.selectFrom("site_settings").selectAll().orderBy("setting_key").execute()),
    ).toEqual(before);
  });

  it("refuses a save over someone else's with 409, keeping what was typed", async () => {
    await withPage({}, async (testPage) => {
      const page = await site.signedIn(testPage, "admin");
      await visit(page, `${site.base}/admin/settings`);
      await site.database((db) =>
        db
          .updateTable("site_settings")
          .set((eb) => ({ setting_value: "https://elsewhere.example/cv", revision: eb("revision", "+", 1) }))
          .where("setting_key", "=", "resume_url")
          .execute(),
      );
      const form = page.getByTestId("site-settings-form");
      await expectStaleSaveRefused(page, {
        form,
        field: form.getByLabel("Resume URL"),
        typed: "https://mine.example/cv",
        save: form.getByRole("button", { name: "Save Settings" }),
        message: STALE_SETTINGS,
        failure: "Failed to update settings",
      });
      const saved = await site.database((db) =>
        db
          .selectFrom("site_settings")
          .select("setting_value")
          .where("setting_key", "=", "resume_url")
          .executeTakeFirstOrThrow(),
      );
      expect(saved.setting_value).toBe("https://elsewhere.example/cv");
    });
  });

  it("Save Settings pressed from the keyboard keeps the focus while saving and after, and sends one save", async () => {
    await withPage({}, async (testPage) => {
      const page = await site.signedIn(testPage, "admin");
      await visit(page, `${site.base}/admin/settings`);
      // The answer is held back a moment, so that the save is seen while it is awaited.
      const posts: string[] = [];
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route(`${site.base}/admin/settings.data*`, async (route) => {
        if (route.request().method() !== "POST") return route.continue();
        posts.push(route.request().url());
        await held;
        await route.continue();
      });
      const form = page.getByTestId("site-settings-form");
      const save = form.locator("button[type=submit]");
      const focusedName = () =>
        page.evaluate(() => {
          const active = document.activeElement;
          return active?.tagName === "BUTTON" ? active.textContent?.trim() : (active?.tagName ?? null);
        });
      await form.getByLabel("Resume URL").fill("https://resume.example/keyboard");
      await save.focus();
      await page.keyboard.press("Enter");
      await form.getByRole("button", { name: "Saving..." }).waitFor();
      expect(await focusedName()).toBe("Saving...");
      // Pressed again, or Enter in a field, while the save is awaited: nothing more is sent.
      await page.keyboard.press("Enter");
      await form.getByLabel("Resume URL").press("Enter");
      await save.focus();
      expect(await textOf(save)).toBe("Saving...");
      release();
      await toast(page, "Settings updated successfully!").waitFor();
      await form.getByRole("button", { name: "Save Settings" }).waitFor();
      expect(await focusedName()).toBe("Save Settings");
      expect(posts).toHaveLength(1);
    });
  });

  // The looks do not depend on the database: checked once.
  if (dialect === TEST_DIALECTS[0]) {
    describe.each(LOOKS)("in the $theme theme", ({ theme, viewport }) => {
      it("the screen, with a field message and after a save, passes axe and fits the window", async () => {
        await withPage({ viewport }, async (testPage) => {
          const page = await site.signedIn(testPage, "admin");
          await chooseTheme(testPage, site.base, theme);
          await visit(page, `${site.base}/admin/settings`);
          await checkState(page, theme, "Site Settings");
          const form = page.getByTestId("site-settings-form");
          await form.getByLabel("LinkedIn profile URL").fill("javascript:alert(1)");
          await form.getByLabel("LinkedIn profile URL").blur();
          await form.getByText(URL_MESSAGE).waitFor();
          await checkState(page, theme, "Site Settings with a field message");
          await form.getByLabel("LinkedIn profile URL").fill(`https://www.linkedin.com/in/ada-${theme}`);
          await form.getByRole("button", { name: "Save Settings" }).click();
          await toast(page, "Settings updated successfully!").waitFor();
          await checkState(page, theme, "Site Settings after a save");
        });
      });
    });
  }
});
