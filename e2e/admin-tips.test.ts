import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { TEST_DIALECTS } from "../tests/helpers/databases.ts";
import {
  checkState,
  choose,
  chooseTheme,
  expectKeyboardDialog,
  expectStaleDialogSaveRefused,
  looksOn,
  toast,
} from "./helpers/admin-screens.ts";
import { newPage, textOf, withPage } from "./helpers/browser.ts";
import { visit } from "./helpers/hydration.ts";
import { setUpSignedInSite } from "./helpers/signed-in-site.ts";

/**
 * /admin/tips in a real browser, on both databases: the list filtered by category in
 * the URL, adding (from the keyboard too), editing and deleting with the spec's
 * toasts, every field message shown before anything is sent and again by the action,
 * a stale edit refused with the dialog kept, the public /blog page showing each write
 * at once, the newsletter notification of a new tip, and every state in both themes
 * (light at 1280 px, dark at 390 px) with axe.
 */

const ACCOUNTS = {
  editor: { email: "eddie@example.com", name: "Eddie Editor", role: "editor" as const },
  colleague: { email: "cora@example.com", name: "Cora Colleague", role: "editor" as const },
};

const LINK_MESSAGE = "Enter a URL starting with http:// or https://";
const STALE_MESSAGE = "This tip was changed by someone else since you opened it. Reload to see the latest version.";

const SEEDED = [
  {
    id: "tip-seed-tenable",
    category: "Tenable",
    title: "Seeded scan policy",
    url: "https://tenable.example/scan",
    type: "external",
  },
  { id: "tip-seed-aws", category: "AWS", title: "Seeded GuardDuty triage", url: null, type: "coming-soon" },
  {
    id: "tip-seed-contested",
    category: "Career",
    title: "Contested tip",
    url: "https://career.example",
    type: "external",
  },
] as const;

function row(page: Page, title: string): Locator {
  return page.getByTestId("tip-row").filter({ has: page.getByText(title, { exact: true }) });
}

/** The card of the public /blog page in a category's block. */
function publicCard(page: Page, category: string, title: string): Locator {
  return page.getByRole("region", { name: category }).getByTestId("tip-card").filter({ hasText: title });
}

describe.each(TEST_DIALECTS)("/admin/tips on %s", (dialect) => {
  const site = setUpSignedInSite({
    dialect,
    accounts: ACCOUNTS,
    subnet: "10.0.21",
    seed: async ({ db }) => {
      const created_at = new Date().toISOString();
      await db
        .insertInto("tips_resources")
        .values(SEEDED.map((tip, index) => ({ ...tip, description: "", order_index: index, created_at })))
        .execute();
    },
  });

  it("the dashboard's Create a post lands here, one click away from the Add Resource dialog", async () => {
    await withPage({}, async (testPage) => {
      const page = await site.signedIn(testPage, "editor");
      await visit(page, `${site.base}/admin`);
      await page.getByRole("link", { name: /Create a post/ }).click();
      await page.waitForURL(`${site.base}/admin/tips`);
      await page.getByRole("button", { name: "Add Resource" }).click();
      await page.getByRole("dialog", { name: "Add Resource" }).waitFor();
    });
  });

  describe.each(looksOn(dialect))("in the $theme theme", ({ theme, viewport }) => {
    const title = `Hardening SSH (${theme})`;
    const edited = `Hardening SSH, revised (${theme})`;

    it("filters, adds, edits and deletes, with the messages, the toasts and the public page", async () => {
      await withPage({ viewport }, async (testPage) => {
        const page = await site.signedIn(testPage, "editor");
        await chooseTheme(testPage, site.base, theme);
        const response = await visit(page, `${site.base}/admin/tips`);
        expect(response?.status()).toBe(200);
        expect(await textOf(page.getByRole("heading", { level: 1 }))).toBe("Tips & Tricks");
        const seededRow = row(page, "Seeded GuardDuty triage");
        expect(await textOf(seededRow)).toMatch(/AWS.*Coming Soon.*1/);
        expect(await textOf(row(page, "Seeded scan policy"))).toMatch(/Tenable.*External Link.*0/);
        await checkState(page, theme, "the list");

        // The filter is in the URL; an empty category says so.
        const filter = page.getByRole("navigation", { name: "Filter by category" });
        await filter.getByRole("link", { name: "AWS", exact: true }).click();
        await page.waitForURL(/\?category=AWS$/);
        await row(page, "Seeded scan policy").waitFor({ state: "detached" });
        expect(await page.getByTestId("tip-row").count()).toBe(1);
        expect(await filter.getByRole("link", { name: "AWS" }).getAttribute("aria-current")).toBe("page");
        await visit(page, `${site.base}/admin/tips?category=Security%20Tips`);
        expect(await textOf(page.getByTestId("empty-state"))).toBe("No resources found.");
        await checkState(page, theme, "an empty category");

        // Adding to a filtered list starts in its category. Nothing is sent while a field is refused.
        const posts: string[] = [];
        page.on("request", (request) => {
          if (request.method() === "POST") posts.push(request.url());
        });
        await page.getByRole("button", { name: "Add Resource" }).click();
        const dialog = page.getByRole("dialog", { name: "Add Resource" });
        expect(await textOf(dialog.getByRole("combobox", { name: "Category" }))).toBe("Security Tips");
        await dialog.getByRole("button", { name: "Add Resource" }).click();
        await dialog.getByText("Title is required").waitFor();
        expect(await dialog.getByLabel("Title").getAttribute("aria-invalid")).toBe("true");
        const url = dialog.getByLabel("URL");
        expect(await url.getAttribute("type")).toBe("url");
        for (const unsafe of ["javascript:alert(1)", "data:text/html,<b>hi</b>"]) {
          await url.fill(unsafe);
          await url.blur();
          await dialog.getByText(LINK_MESSAGE).waitFor();
        }
        await checkState(page, theme, "the add dialog with its messages");
        expect(posts).toEqual([]);

        await dialog.getByLabel("Title").fill(title);
        await dialog.getByLabel("Description").fill("Keys only, no root login.");
        await url.fill(`https://ssh.example/${theme}`);
        await dialog.getByText(LINK_MESSAGE).waitFor({ state: "detached" });
        await choose(page, dialog.getByRole("combobox", { name: "Type" }), "Coming Soon");
        // Not a whole number: saved as 0.
        await dialog.getByLabel("Order").fill("2.5");
        await dialog.getByRole("button", { name: "Add Resource" }).click();
        await toast(page, "Resource added successfully!").waitFor();
        await dialog.waitFor({ state: "hidden" });
        expect(await textOf(row(page, title))).toMatch(/Security Tips.*Coming Soon.*0/);

        const saved = await site.database((db) =>
          db.selectFrom("tips_resources").selectAll().where("title", "=", title).executeTakeFirstOrThrow(),
        );
        expect(saved).toMatchObject({ category: "Security Tips", type: "coming-soon", order_index: 0 });
        const notification = () =>
          site.database((db) =>
            db
              .selectFrom("notifications")
              .select(["status", "title", "url"])
              .where("item_id", "=", saved.id)
              .executeTakeFirst(),
          );
        expect(await notification()).toEqual({ status: "pending", title, url: "/blog" });

        await page.goto(`${site.base}/blog`);
        expect(await textOf(publicCard(page, "Security Tips", title))).toContain("Coming Soon");

        // Editing: every field is saved, an emptied URL as none (the public card is dimmed).
        await visit(page, `${site.base}/admin/tips`);
        await row(page, title)
          .getByRole("button", { name: `Edit ${title}` })
          .click();
        const editDialog = page.getByRole("dialog", { name: "Edit Resource" });
        expect(await editDialog.getByLabel("Title").inputValue()).toBe(title);
        expect(await editDialog.getByLabel("Order").inputValue()).toBe("0");
        await editDialog.getByLabel("Title").fill(edited);
        await editDialog.getByLabel("URL").fill("");
        await choose(page, editDialog.getByRole("combobox", { name: "Type" }), "External Link");
        await checkState(page, theme, "the edit dialog");
        await editDialog.getByRole("button", { name: "Save changes" }).click();
        await toast(page, "Resource updated successfully!").waitFor();
        await editDialog.waitFor({ state: "hidden" });
        expect(await textOf(row(page, edited))).toMatch(/Security Tips.*External Link/);
        await page.goto(`${site.base}/blog`);
        expect(await publicCard(page, "Security Tips", edited).getAttribute("data-dimmed")).toBe("true");
        expect(await publicCard(page, "Security Tips", title).count()).toBe(0);

        // Deleting asks first, saying it cannot be undone; the pending notification is withdrawn.
        await visit(page, `${site.base}/admin/tips`);
        await row(page, edited)
          .getByRole("button", { name: `Delete ${edited}` })
          .click();
        const confirm = page.getByRole("alertdialog", { name: `Delete ${edited}?` });
        expect(await textOf(confirm)).toContain("This action cannot be undone.");
        await checkState(page, theme, "the delete confirmation");
        await confirm.getByRole("button", { name: "Delete" }).click();
        await toast(page, "Resource deleted successfully!").waitFor();
        await row(page, edited).waitFor({ state: "detached" });
        expect((await notification())?.status).toBe("cancelled");
        await page.goto(`${site.base}/blog`);
        expect(await publicCard(page, "Security Tips", edited).count()).toBe(0);
      });
    });
  });

  it("adds a resource from the keyboard alone; Escape closes the dialog and focus returns", async () => {
    await withPage({}, async (testPage) => {
      const page = await site.signedIn(testPage, "editor");
      await visit(page, `${site.base}/admin/tips`);
      const add = page.getByRole("button", { name: "Add Resource" });
      await expectKeyboardDialog(page, add);

      await add.focus();
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog", { name: "Add Resource" });
      await dialog.waitFor();
      // Focus starts in the Title field.
      await page.keyboard.type("Typed from the keyboard");
      await page.keyboard.press("Tab");
      await page.keyboard.type("No mouse needed.");
      await page.keyboard.press("Tab");
      await page.keyboard.type("https://keyboard.example");
      await page.keyboard.press("Tab");
      // A closed list box picks by its first letter.
      await page.keyboard.type("A");
      await page.keyboard.press("Tab");
      await page.keyboard.press("Tab");
      await page.keyboard.type("4");
      await page.keyboard.press("Enter");
      await toast(page, "Resource added successfully!").waitFor();
      await dialog.waitFor({ state: "hidden" });
      expect(await textOf(row(page, "Typed from the keyboard"))).toMatch(/AWS.*External Link.*4/);
      await expect.poll(() => add.evaluate((element) => element === document.activeElement)).toBe(true);
    });
  });

  it("refuses a save from a dialog opened before someone else's save (409), keeping what was typed", async () => {
    await withPage({}, async (testPage) => {
      const first = await site.signedIn(testPage, "editor");
      const second = await newPage();
      try {
        await expectStaleDialogSaveRefused({
          first,
          second: await site.signedIn(second, "colleague"),
          open: async (on) => {
            await visit(on, `${site.base}/admin/tips`);
            await row(on, "Contested tip").getByRole("button", { name: "Edit Contested tip" }).click();
            return on.getByRole("dialog", { name: "Edit Resource" });
          },
          label: "Title",
          values: { fresh: "Contested tip, Cora's version", stale: "Contested tip, Eddie's version" },
          updated: "Resource updated successfully!",
          message: STALE_MESSAGE,
          failure: "Failed to update resource",
        });

        await first.goto(`${site.base}/blog`);
        await publicCard(first, "Career", "Contested tip, Cora's version").waitFor();
      } finally {
        await second.close();
      }
    });
  });

  /** The button focused in a dialog ("Save changes"), or the tag of what has the focus elsewhere. */
  const focusedButton = (page: Page) =>
    page.evaluate(() => {
      const active = document.activeElement;
      const dialog = active?.closest("[role=dialog], [role=alertdialog]");
      return active?.tagName === "BUTTON" && dialog ? active.textContent?.trim() : (active?.tagName ?? null);
    });
  /** Someone else deletes the tip. */
  const gone = () => site.database((db) => db.deleteFrom("tips_resources").where("title", "=", "Doomed tip").execute());

  /** The tips screen, signed in as an editor, showing a tip that someone else is about to delete. */
  const withDoomedTip = async (work: (page: Page) => Promise<void>) => {
    const created = await site.postForm(
      "/admin/tips",
      { intent: "create-tip", title: "Doomed tip", category: "Career" },
      "editor",
    );
    expect(created.status).toBe(200);
    await withPage({}, async (testPage) => {
      const page = await site.signedIn(testPage, "editor");
      await visit(page, `${site.base}/admin/tips`);
      await work(page);
    });
  };

  it("a save refused because someone else deleted the item leaves the focus on Save changes, in the dialog", async () => {
    await withDoomedTip(async (page) => {
      // Someone else deletes the tip while its edit dialog is open.
      await row(page, "Doomed tip").getByRole("button", { name: "Edit Doomed tip" }).click();
      const dialog = page.getByRole("dialog", { name: "Edit Resource" });
      await dialog.getByLabel("Title").fill("Doomed tip, kept");
      await gone();
      await dialog.getByRole("button", { name: "Save changes" }).focus();
      await page.keyboard.press("Enter");
      await toast(page, "Failed to update resource: This tip no longer exists.").waitFor();
      expect(await textOf(dialog.getByTestId("form-errors"))).toBe("This tip no longer exists.");
      await expect.poll(() => focusedButton(page)).toBe("Save changes");
    });
  });

  it("a delete refused because someone else deleted it first keeps the focus on the confirmation's Delete", async () => {
    await withDoomedTip(async (page) => {
      await row(page, "Doomed tip").getByRole("button", { name: "Delete Doomed tip" }).click();
      const confirm = page.getByRole("alertdialog", { name: "Delete Doomed tip?" });
      await gone();
      await confirm.getByRole("button", { name: "Delete" }).focus();
      await page.keyboard.press("Enter");
      await toast(page, "Failed to delete resource: This tip no longer exists.").waitFor();
      await expect.poll(() => focusedButton(page)).toBe("Delete");
      expect(await confirm.isVisible()).toBe(true);
    });
  });

  it("the action checks every form again, whatever the browser sent", async () => {
    const post = (fields: Record<string, string>) => site.postForm("/admin/tips", fields, "editor");
    for (const url of ["javascript:alert(1)", "data:text/html,<b>hi</b>", "vbscript:x"]) {
      const refused = await post({ intent: "create-tip", title: "Sneaky", url });
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain(`Failed to add resource: ${LINK_MESSAGE}`);
    }
    const untitled = await post({ intent: "create-tip", title: "   " });
    expect(untitled.status).toBe(400);
    expect(await untitled.text()).toContain("Title is required");
    const gone = await post({ intent: "delete-tip", id: "tip-that-does-not-exist" });
    expect(gone.status).toBe(404);
    expect(await gone.text()).toContain("Failed to delete resource: This tip no longer exists.");
    const titles = await site.database((db) => db.selectFrom("tips_resources").select("title").execute());
    expect(titles.map((tip) => tip.title)).not.toContain("Sneaky");
  });
});
