import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { TEST_DIALECTS } from "../tests/helpers/databases.ts";
import {
  checkState,
  choose,
  chooseTheme,
  expectKeyboardDialog,
  expectNoSideScroll,
  expectStaleDialogSaveRefused,
  looksOn,
  toast,
} from "./helpers/admin-screens.ts";
import { MOBILE_VIEWPORT, newPage, textOf, withPage } from "./helpers/browser.ts";
import { visit } from "./helpers/hydration.ts";
import { setUpSignedInSite } from "./helpers/signed-in-site.ts";

/**
 * /admin/resources in a real browser, on both databases: the library as cards filtered
 * by category in the URL (Services included), each card's open link, edit and delete;
 * adding (from the keyboard too) and editing with the Featured switch, the spec's
 * toasts, every field message shown before anything is sent and again by the action, a
 * stale edit refused with the dialog kept, the public /resources page showing each write
 * at once (Services never), the newsletter notification of a new resource, and every
 * state in both themes (light at 1280 px, dark at 390 px) with axe.
 */

const ACCOUNTS = {
  editor: { email: "eddie@example.com", name: "Eddie Editor", role: "editor" as const },
  colleague: { email: "cora@example.com", name: "Cora Colleague", role: "editor" as const },
};

const LINK_MESSAGE = "Enter a URL starting with http://, https:// or /";
const STALE_MESSAGE =
  "This resource was changed by someone else since you opened it. Reload to see the latest version.";

const SEEDED = [
  { id: "res-seed-owasp", name: "Seeded OWASP", url: "https://owasp.example", category: "Learning", featured: true },
  {
    id: "res-seed-retainer",
    name: "Seeded retainer",
    url: "https://retainer.example",
    category: "Services",
    featured: false,
  },
  {
    id: "res-seed-contested",
    name: "Contested resource",
    url: "https://tools.example",
    category: "Tools",
    featured: false,
  },
] as const;

function card(page: Page, name: string): Locator {
  return page.getByTestId("resource-card").filter({ has: page.getByRole("heading", { name, exact: true }) });
}

/** A card of the public /resources page, in the Featured grid or in a category of More Resources. */
function publicCard(page: Page, section: string, name: string): Locator {
  return page.getByRole("region", { name: section }).getByTestId("resource-card").filter({ hasText: name });
}

describe.each(TEST_DIALECTS)("/admin/resources on %s", (dialect) => {
  const site = setUpSignedInSite({
    dialect,
    accounts: ACCOUNTS,
    subnet: "10.0.22",
    seed: async ({ db }) => {
      const created_at = new Date().toISOString();
      await db
        .insertInto("resources")
        .values(
          SEEDED.map((resource, index) => ({
            ...resource,
            // One unbroken link, as editors paste them: its card must not widen the page.
            description: index === 0 ? `https://example.com/download?token=${"A1b2C3d4".repeat(25)}` : "",
            order_index: index,
            created_at,
          })),
        )
        .execute();
    },
  });

  it("the dashboard's Add resources lands here, one click away from the Add Resource dialog", async () => {
    await withPage({}, async (testPage) => {
      const page = await site.signedIn(testPage, "editor");
      await visit(page, `${site.base}/admin`);
      await page.getByRole("link", { name: /Add resources/ }).click();
      await page.waitForURL(`${site.base}/admin/resources`);
      await page.getByRole("button", { name: "Add Resource" }).click();
      await page.getByRole("dialog", { name: "Add Resource" }).waitFor();
    });
  });

  describe.each(looksOn(dialect))("in the $theme theme", ({ theme, viewport }) => {
    const name = `Threat feed (${theme})`;
    const edited = `Threat feed, renamed (${theme})`;

    it("filters, adds, edits and deletes, with the messages, the toasts and the public page", async () => {
      await withPage({ viewport }, async (testPage) => {
        const page = await site.signedIn(testPage, "editor");
        await chooseTheme(testPage, site.base, theme);
        const response = await visit(page, `${site.base}/admin/resources`);
        expect(response?.status()).toBe(200);
        expect(await textOf(page.getByRole("heading", { level: 1 }))).toBe("Resources");
        const owasp = card(page, "Seeded OWASP");
        expect(await textOf(owasp)).toContain("Featured");
        expect(await textOf(card(page, "Contested resource"))).not.toContain("Featured");
        const open = owasp.getByRole("link", { name: "Open Seeded OWASP (opens in a new tab)" });
        expect(await open.getAttribute("href")).toBe("https://owasp.example");
        expect(await open.getAttribute("target")).toBe("_blank");
        expect(await open.getAttribute("rel")).toBe("noopener noreferrer");
        await checkState(page, theme, "the cards");

        // The filter is in the URL; Services are listed here (never on the public page); an empty category says so.
        const filter = page.getByRole("navigation", { name: "Filter by category" });
        await filter.getByRole("link", { name: "Services", exact: true }).click();
        await page.waitForURL(/\?category=Services$/);
        await owasp.waitFor({ state: "detached" });
        expect(await page.getByTestId("resource-card").count()).toBe(1);
        await card(page, "Seeded retainer").waitFor();
        expect(await filter.getByRole("link", { name: "Services" }).getAttribute("aria-current")).toBe("page");
        await visit(page, `${site.base}/admin/resources?category=Certifications`);
        expect(await textOf(page.getByTestId("empty-state"))).toBe("No resources found.");
        await checkState(page, theme, "an empty category");

        // Adding to a filtered list starts in its category. Nothing is sent while a field is refused.
        const posts: string[] = [];
        page.on("request", (request) => {
          if (request.method() === "POST") posts.push(request.url());
        });
        await page.getByRole("button", { name: "Add Resource" }).click();
        const dialog = page.getByRole("dialog", { name: "Add Resource" });
        expect(await textOf(dialog.getByRole("combobox", { name: "Category" }))).toBe("Certifications");
        await dialog.getByRole("button", { name: "Add Resource" }).click();
        await dialog.getByText("Name is required").waitFor();
        await dialog.getByText("URL is required").waitFor();
        const url = dialog.getByLabel("URL");
        expect(await url.getAttribute("type")).toBe("url");
        expect(await url.getAttribute("aria-invalid")).toBe("true");
        for (const unsafe of ["javascript:alert(1)", "data:text/html,<b>hi</b>"]) {
          await url.fill(unsafe);
          await url.blur();
          await dialog.getByText(LINK_MESSAGE).waitFor();
        }
        await checkState(page, theme, "the add dialog with its messages");
        expect(posts).toEqual([]);

        const countBefore = await site.database((db) => db.selectFrom("resources").select("id").execute());
        await dialog.getByLabel("Name").fill(name);
        await dialog.getByLabel("Description").fill("Indicators, daily.");
        await url.fill(`https://feed.example/${theme}`);
        await choose(page, dialog.getByRole("combobox", { name: "Category" }), "News");
        await dialog.getByRole("switch", { name: "Featured" }).click();
        await dialog.getByRole("button", { name: "Add Resource" }).click();
        await toast(page, "Resource added successfully!").waitFor();
        await dialog.waitFor({ state: "hidden" });
        // Still filtered to Certifications: the new News resource is listed under All.
        await visit(page, `${site.base}/admin/resources`);
        expect(await textOf(card(page, name))).toMatch(/Featured.*News.*Indicators, daily\./);

        const saved = await site.database((db) =>
          db.selectFrom("resources").selectAll().where("name", "=", name).executeTakeFirstOrThrow(),
        );
        // A new resource's order is the count of resources before it.
        expect(saved).toMatchObject({ category: "News", featured: true, order_index: countBefore.length });
        const notification = () =>
          site.database((db) =>
            db
              .selectFrom("notifications")
              .select(["status", "title", "url"])
              .where("item_id", "=", saved.id)
              .executeTakeFirst(),
          );
        expect(await notification()).toEqual({ status: "pending", title: name, url: "/resources" });

        await page.goto(`${site.base}/resources`);
        await publicCard(page, "Featured Resources", name).waitFor();
        expect(await page.getByText("Seeded retainer").count()).toBe(0);

        // Editing: the switch turned off is saved as not featured.
        await visit(page, `${site.base}/admin/resources`);
        await card(page, name)
          .getByRole("button", { name: `Edit ${name}` })
          .click();
        const editDialog = page.getByRole("dialog", { name: "Edit Resource" });
        expect(await editDialog.getByLabel("Name").inputValue()).toBe(name);
        expect(await editDialog.getByRole("switch", { name: "Featured" }).getAttribute("aria-checked")).toBe("true");
        await editDialog.getByLabel("Name").fill(edited);
        await choose(page, editDialog.getByRole("combobox", { name: "Category" }), "Certifications");
        await editDialog.getByRole("switch", { name: "Featured" }).click();
        await checkState(page, theme, "the edit dialog");
        await editDialog.getByRole("button", { name: "Save changes" }).click();
        await toast(page, "Resource updated successfully!").waitFor();
        await editDialog.waitFor({ state: "hidden" });
        expect(await textOf(card(page, edited))).not.toContain("Featured");
        await page.goto(`${site.base}/resources`);
        await publicCard(page, "Certifications", edited).waitFor();
        expect(await page.getByText(name, { exact: true }).count()).toBe(0);

        // Deleting asks first, saying it cannot be undone; the pending notification is withdrawn.
        await visit(page, `${site.base}/admin/resources`);
        await card(page, edited)
          .getByRole("button", { name: `Delete ${edited}` })
          .click();
        const confirm = page.getByRole("alertdialog", { name: `Delete ${edited}?` });
        expect(await textOf(confirm)).toContain("This action cannot be undone.");
        await checkState(page, theme, "the delete confirmation");
        await confirm.getByRole("button", { name: "Delete" }).focus();
        await page.keyboard.press("Enter");
        await toast(page, "Resource deleted successfully!").waitFor();
        await card(page, edited).waitFor({ state: "detached" });
        // Its trigger went with the card: focus is on the main region, not lost.
        await page.waitForFunction(() => document.activeElement?.id === "main", undefined, { timeout: 2_000 });
        expect((await notification())?.status).toBe("cancelled");
        await page.goto(`${site.base}/resources`);
        expect(await page.getByText(edited).count()).toBe(0);
      });
    });
  });

  it("keeps a resource named with an unbroken word (a pasted hash) within a phone's width", async () => {
    const hash = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
    await site.database((db) =>
      db
        .insertInto("resources")
        .values({ id: "res-long-word", name: `SHA-256 ${hash}`, url: `https://hashes.example/${hash}`, order_index: 9 })
        .execute(),
    );
    try {
      await withPage({ viewport: MOBILE_VIEWPORT }, async (testPage) => {
        const page = await site.signedIn(testPage, "editor");
        await visit(page, `${site.base}/admin/resources`);
        await card(page, `SHA-256 ${hash}`).waitFor();
        await expectNoSideScroll(page, "a resource named with a hash");
      });
    } finally {
      await site.database((db) => db.deleteFrom("resources").where("id", "=", "res-long-word").execute());
    }
  });

  it("adds a resource from the keyboard alone; Escape closes the dialog and focus returns", async () => {
    await withPage({}, async (testPage) => {
      const page = await site.signedIn(testPage, "editor");
      await visit(page, `${site.base}/admin/resources`);
      const add = page.getByRole("button", { name: "Add Resource" });
      await expectKeyboardDialog(page, add);

      await add.focus();
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog", { name: "Add Resource" });
      await dialog.waitFor();
      // Focus starts in the Name field.
      await page.keyboard.type("Typed from the keyboard");
      await page.keyboard.press("Tab");
      await page.keyboard.type("No mouse needed.");
      await page.keyboard.press("Tab");
      await page.keyboard.type("https://keyboard.example");
      await page.keyboard.press("Tab");
      // A closed list box picks by its first letter.
      await page.keyboard.type("T");
      await page.keyboard.press("Tab");
      await page.keyboard.press("Space");
      expect(await dialog.getByRole("switch", { name: "Featured" }).getAttribute("aria-checked")).toBe("true");
      await page.keyboard.press("Tab");
      await page.keyboard.press("Tab");
      await page.keyboard.press("Enter");
      await toast(page, "Resource added successfully!").waitFor();
      await dialog.waitFor({ state: "hidden" });
      expect(await textOf(card(page, "Typed from the keyboard"))).toMatch(/Featured.*Tools/);
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
            await visit(on, `${site.base}/admin/resources`);
            await card(on, "Contested resource").getByRole("button", { name: "Edit Contested resource" }).click();
            return on.getByRole("dialog", { name: "Edit Resource" });
          },
          label: "Name",
          values: { fresh: "Contested resource, Cora's version", stale: "Contested resource, Eddie's version" },
          updated: "Resource updated successfully!",
          message: STALE_MESSAGE,
          failure: "Failed to update resource",
        });

        await first.goto(`${site.base}/resources`);
        await publicCard(first, "Tools", "Contested resource, Cora's version").waitFor();
      } finally {
        await second.close();
      }
    });
  });

  it("the action checks every form again, whatever the browser sent", async () => {
    const post = (fields: Record<string, string>) => site.postForm("/admin/resources", fields, "editor");
    for (const url of ["javascript:alert(1)", "data:text/html,<b>hi</b>", "//evil.example"]) {
      const refused = await post({ intent: "create-resource", name: "Sneaky", url });
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain(`Failed to add resource: ${LINK_MESSAGE}`);
    }
    const unnamed = await post({ intent: "create-resource", name: " ", url: "https://x.example" });
    expect(unnamed.status).toBe(400);
    expect(await unnamed.text()).toContain("Name is required");
    const gone = await post({ intent: "delete-resource", id: "resource-that-does-not-exist" });
    expect(gone.status).toBe(404);
    expect(await gone.text()).toContain("Failed to delete resource: This resource no longer exists.");
    const names = await site.database((db) => db.selectFrom("resources").select("name").execute());
    expect(names.map((resource) => resource.name)).not.toContain("Sneaky");
  });
});
