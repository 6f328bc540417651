import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { TEST_DIALECTS } from "../tests/helpers/databases.ts";
import { checkState, chooseTheme, expectStaleSaveRefused, LOOKS, toast } from "./helpers/admin-screens.ts";
import { textOf, withPage } from "./helpers/browser.ts";
import { visit, waitForHydration } from "./helpers/hydration.ts";
import { setUpSignedInSite } from "./helpers/signed-in-site.ts";

/**
 * The Home Page Editor tab of /admin/home in a real browser, on both databases: the
 * hero, both buttons and the newsletter switch saved together with the spec's toast and
 * shown at once on the public home page; field messages before sending and again from
 * the action; a save over someone else's change refused as a whole (409, nothing
 * saved, the form kept); the tabs by keyboard and in the URL; both looks with axe.
 */

const ACCOUNTS = {
  editor: { email: "eddie@example.com", name: "Eddie Editor", role: "editor" as const },
};

const LINK_MESSAGE = "Enter a URL starting with http://, https:// or /";
const STALE_HOME =
  "Some updates failed, so nothing was saved. This home page was changed by someone else since you opened it. Reload to see the latest version.";

describe.each(TEST_DIALECTS)("the Home Page Editor on %s", (dialect) => {
  const site = setUpSignedInSite({ dialect, accounts: ACCOUNTS, subnet: "10.0.51" });

  async function openEditor(page: Page) {
    expect((await visit(page, `${site.base}/admin/home`))?.status()).toBe(200);
    return page.getByTestId("home-page-editor");
  }

  async function publicHome(page: Page) {
    await page.goto(`${site.base}/`);
    const link = async (testId: string) => ({
      text: await textOf(page.getByTestId(testId)),
      href: await page.getByTestId(testId).getAttribute("href"),
    });
    return {
      headline: await textOf(page.getByRole("heading", { level: 1 })),
      tagline: await textOf(page.getByTestId("hero-tagline")),
      description: await textOf(page.getByTestId("hero-description")),
      primary: await link("hero-primary"),
      secondary: await link("hero-secondary"),
      newsletter: await page.getByTestId("newsletter-section").count(),
    };
  }

  it("saves the hero, the buttons and the newsletter switch, and the home page shows them at once", async () => {
    await withPage({}, async (testPage) => {
      const page = await site.signedIn(testPage, "editor");
      const editor = await openEditor(page);
      expect(await page.getByRole("tab", { name: "Home Page Editor" }).getAttribute("aria-selected")).toBe("true");
      expect(await editor.getByLabel("Primary button link").inputValue()).toBe("/projects");
      expect(await editor.getByRole("switch", { name: "Show the newsletter signup section" }).isChecked()).toBe(true);

      await editor.getByLabel("Hero headline").fill("Defend by design");
      await editor.getByLabel("Tagline").fill("Cloud security engineer");
      await editor.getByLabel("Description").fill("Write-ups, courses and checklists.");
      await editor.getByLabel("Primary button text").fill("Start the course");
      await editor.getByLabel("Primary button link").fill("/projects/getting-started");
      await editor.getByLabel("Secondary button text").fill("My GitHub");
      await editor.getByLabel("Secondary button link").fill("https://github.com/ada");
      await editor.getByRole("switch", { name: "Show the newsletter signup section" }).click();
      await editor.getByRole("button", { name: "Save Home Page" }).click();
      await toast(page, "Home page updated successfully!").waitFor();

      expect(await publicHome(page)).toEqual({
        headline: "Defend by design",
        tagline: "Cloud security engineer",
        description: "Write-ups, courses and checklists.",
        primary: { text: "Start the course", href: "/projects/getting-started" },
        secondary: { text: "My GitHub", href: "https://github.com/ada" },
        newsletter: 0,
      });
      const audit = await site.database((db) =>
        db.selectFrom("audit_log").select(["action", "user_id"]).where("action", "=", "home-page.updated").execute(),
      );
      expect(audit).toEqual([{ action: "home-page.updated", user_id: site.site.users.get(ACCOUNTS.editor.email)?.id }]);

      // The next save starts from the saved revisions (no false conflict); an emptied link brings back the default.
      const again = await openEditor(page);
      expect(await again.getByRole("switch", { name: "Show the newsletter signup section" }).isChecked()).toBe(false);
      await again.getByRole("switch", { name: "Show the newsletter signup section" }).click();
      await again.getByLabel("Primary button link").fill("");
      await again.getByRole("button", { name: "Save Home Page" }).click();
      await toast(page, "Home page updated successfully!").waitFor();
      const home = await publicHome(page);
      expect(home.primary).toEqual({ text: "Start the course", href: "/projects" });
      expect(home.newsletter).toBe(1);
    });
  });

  it("refuses unsafe links and empty button texts beside the field, and the action checks them again", async () => {
    await withPage({}, async (testPage) => {
      const page = await site.signedIn(testPage, "editor");
      const editor = await openEditor(page);
      const posts: string[] = [];
      page.on("request", (request) => {
        if (request.method() === "POST") posts.push(request.url());
      });
      for (const unsafe of ["javascript:alert(1)", "data:text/html,x", "//evil.example"]) {
        await editor.getByLabel("Secondary button link").fill(unsafe);
        await editor.getByRole("button", { name: "Save Home Page" }).click();
        await editor.getByText(LINK_MESSAGE).waitFor();
        expect(await editor.getByLabel("Secondary button link").getAttribute("aria-invalid")).toBe("true");
      }
      await editor.getByLabel("Primary button text").fill("  ");
      await editor.getByRole("button", { name: "Save Home Page" }).click();
      await editor.getByText("Button text is required").waitFor();
      expect(posts).toEqual([]);
    });

    const before = await site.database((db) =>
      db.selectFrom("home_page_content").selectAll().orderBy("section_key").execute(),
    );
    const revisions = Object.fromEntries(before.map((row) => [`${row.section_key}.revision`, String(row.revision)]));
    const refused = await site.postForm(
      "/admin/home",
      {
        intent: "save-home-page",
        ...revisions,
        "hero_headline.value": "Changed",
        "button_primary_text.value": "Go",
        "button_primary_text.link": "javascript:alert(1)",
        "button_secondary_text.value": "Read",
      },
      "editor",
    );
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(`Failed to update home page: ${LINK_MESSAGE}`);
    expect(
      await site.database((db) => db.selectFrom("home_page_content").selectAll().orderBy("section_key").execute()),
    ).toEqual(before);
  });

  it("refuses a save over someone else's change as a whole, keeping what was typed", async () => {
    await withPage({}, async (testPage) => {
      const page = await site.signedIn(testPage, "editor");
      const editor = await openEditor(page);
      await site.database((db) =>
        db
          .updateTable("home_page_content")
          .set((eb) => ({ content_value: "Someone else's tagline", revision: eb("revision", "+", 1) }))
          .where("section_key", "=", "hero_tagline")
          .execute(),
      );
      const before = await site.database((db) =>
        db.selectFrom("home_page_content").selectAll().orderBy("section_key").execute(),
      );
      await expectStaleSaveRefused(page, {
        form: editor,
        field: editor.getByLabel("Hero headline"),
        typed: "Mine, not theirs",
        save: editor.getByRole("button", { name: "Save Home Page" }),
        message: STALE_HOME,
        failure: "Failed to update home page",
      });
      // The focus stays on the button pressed, not on the switch's hidden checkbox, while the alert is read out.
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe("Save Home Page");
      expect(
        await site.database((db) => db.selectFrom("home_page_content").selectAll().orderBy("section_key").execute()),
      ).toEqual(before);
    });
  });

  it("keeps what was typed into the Home Page Editor after a look at Newsletter Settings", async () => {
    await withPage({}, async (testPage) => {
      const page = await site.signedIn(testPage, "editor");
      const editor = await openEditor(page);
      await editor.getByLabel("Hero headline").fill("Typed, not saved yet");
      await page.getByRole("tab", { name: "Newsletter Settings" }).click();
      await page.getByTestId("newsletter-settings-form").waitFor();
      await page.getByRole("tab", { name: "Home Page Editor" }).click();
      await editor.waitFor();
      expect(await editor.getByLabel("Hero headline").inputValue()).toBe("Typed, not saved yet");
    });
  });

  it.each(LOOKS)(
    "keeps both tabs usable by keyboard, in the URL, in the $theme theme at $viewport.width px",
    async ({ theme, viewport }) => {
      await withPage({ viewport }, async (testPage) => {
        const page = await site.signedIn(testPage, "editor");
        await chooseTheme(testPage, site.base, theme);
        await openEditor(page);
        await checkState(page, theme, "Home Page Editor");

        await page.getByRole("tab", { name: "Home Page Editor" }).focus();
        await page.keyboard.press("ArrowRight");
        await page.waitForURL(`${site.base}/admin/home?tab=newsletter`);
        await page.getByRole("tab", { name: "Newsletter Settings", selected: true }).waitFor();
        await page.getByTestId("newsletter-settings-form").waitFor();
        await checkState(page, theme, "Newsletter Settings");

        await page.reload();
        await waitForHydration(page);
        await page.getByRole("tab", { name: "Newsletter Settings", selected: true }).waitFor();
        expect(await page.getByRole("tab", { name: "Home Page Editor" }).getAttribute("aria-selected")).toBe("false");
      });
    },
  );
});
