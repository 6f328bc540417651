import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { dynamicTables } from "../server/content/dynamic-tables.ts";
import { getListRevision, listKeys } from "../server/content/list-revisions.ts";
import { TEST_DIALECTS } from "../tests/helpers/databases.ts";
import {
  checkState,
  choose,
  chooseTheme,
  expectKeyboardDialog,
  expectStaleSaveRefused,
  LOOKS,
  toast,
} from "./helpers/admin-screens.ts";
import { textOf, withPage } from "./helpers/browser.ts";
import { visit } from "./helpers/hydration.ts";
import { setUpSignedInSite } from "./helpers/signed-in-site.ts";

/**
 * /admin/about in a real browser, on both databases: Biography & Content saved
 * together (an empty name refused, a stale save refused with 409 and the form kept),
 * each of the three lists added to, edited, moved up by its button, reordered by
 * keyboard drag and drop and deleted with the spec's toasts, the skill level's slider
 * by keyboard, the public /about page showing each write at once, and every tab and
 * dialog in both themes (light at 1280 px, dark at 390 px) with axe.
 */

const ACCOUNTS = {
  editor: { email: "eddie@example.com", name: "Eddie Editor", role: "editor" as const },
};

const STALE_CONTENT =
  "This about content was changed by someone else since you opened it. Reload to see the latest version.";

/** The names of a list's items in their order, read from the drag handles' labels. */
async function order(page: Page, list: string): Promise<string[]> {
  const labels = await page
    .getByTestId(`${list}-items`)
    .getByTestId("drag-handle")
    .evaluateAll((handles) => handles.map((handle) => handle.getAttribute("aria-label") ?? ""));
  return labels.map((label) => label.replace(/^Reorder /, ""));
}

function item(page: Page, list: string, name: string): Locator {
  return page
    .getByTestId(`${list}-items`)
    .getByTestId("profile-item")
    .filter({ has: page.getByRole("button", { name: `Reorder ${name}`, exact: true }) });
}

/**
 * Moves an item one place down with the keyboard, as a keyboard user does: Space picks
 * it up, ArrowDown moves it, Space drops it. dnd-kit starts listening for the arrows a
 * moment after the pick-up, so ArrowDown is pressed until the move is announced (at
 * most one place: the announcement stops the presses).
 */
async function dragDownByKeyboard(page: Page, name: string, position: number, size: number): Promise<void> {
  const handle = page.getByRole("button", { name: `Reorder ${name}`, exact: true });
  await handle.focus();
  await page.keyboard.press("Space");
  await expect.poll(() => handle.getAttribute("aria-pressed")).toBe("true");
  const moved = page.getByText(`${name} is now at position ${position + 1} of ${size}.`);
  await expect
    .poll(async () => {
      if ((await moved.count()) === 0) await page.keyboard.press("ArrowDown");
      return moved.count();
    })
    .toBe(1);
  await page.keyboard.press("Space");
}

/** One of the three lists: how to fill its dialog, and what the public About page shows of it. */
interface ListCase {
  list: string;
  table: "certifications" | "skills" | "timeline_events";
  nameColumn: "name" | "title";
  tab: string;
  thing: string;
  title: string;
  /** Submitting the empty add dialog shows these. */
  required: string[];
  fill(dialog: Locator, page: Page, name: string): Promise<void>;
  edit(dialog: Locator, page: Page): Promise<void>;
  /** The edited item's row reads like this. */
  edited: RegExp;
  /** The test id of the public page's items of this list. */
  publicTestId: string;
}

const LISTS: ListCase[] = [
  {
    list: "certifications",
    table: "certifications",
    nameColumn: "name",
    tab: "Certifications",
    thing: "Certification",
    title: "Certification",
    required: ["Name is required"],
    async fill(dialog, _page, name) {
      await dialog.getByLabel("Name").fill(name);
      await dialog.getByLabel("Organization").fill("ISC2");
      await dialog.getByLabel("Description").fill("Security leadership.");
      await dialog.getByLabel("Date").fill("2023");
    },
    async edit(dialog, page) {
      await dialog.getByLabel("Date").fill("2024");
      await choose(page, dialog.getByRole("combobox", { name: "Status" }), "In Progress");
    },
    edited: /In Progress.*ISC2 · 2024/,
    publicTestId: "certification",
  },
  {
    list: "skills",
    table: "skills",
    nameColumn: "name",
    tab: "Skills",
    thing: "Skill",
    title: "Skill",
    required: ["Name is required"],
    async fill(dialog, _page, name) {
      await dialog.getByLabel("Name").fill(name);
    },
    async edit(dialog) {
      await dialog.getByLabel("Category").fill("Cloud");
    },
    edited: /Cloud.*50%/,
    publicTestId: "skill",
  },
  {
    list: "timeline",
    table: "timeline_events",
    nameColumn: "title",
    tab: "Timeline",
    thing: "Timeline event",
    title: "Timeline Event",
    required: ["Date is required", "Title is required"],
    async fill(dialog, _page, name) {
      await dialog.getByLabel("Date").fill("2024-01");
      await dialog.getByLabel("Title").fill(name);
    },
    async edit(dialog, page) {
      await dialog.getByLabel("Description").fill("Shipped the scanner.");
      await choose(page, dialog.getByRole("combobox", { name: "Category" }), "Career");
    },
    edited: /2024-01.*Career.*Shipped the scanner\./,
    publicTestId: "timeline-event",
  },
];

/** The public About page's items of one list, in order (by their names). */
async function publicItems(base: string, testId: string): Promise<string[]> {
  const html = await (await fetch(`${base}/about`)).text();
  const pattern = new RegExp(`<li[^>]*data-testid="${testId}"[^>]*>([\\s\\S]*?)</li>`, "g");
  return [...html.matchAll(pattern)].map((match) => {
    const name = /<(?:h3|span)[^>]*>([^<]*)/.exec(match[1] ?? "");
    return name?.[1]?.trim() ?? "";
  });
}

async function publicAbout(base: string): Promise<string> {
  return (await fetch(`${base}/about`)).text();
}

describe.each(TEST_DIALECTS)("/admin/about on %s", (dialect) => {
  const site = setUpSignedInSite({ dialect, accounts: ACCOUNTS, subnet: "10.0.41" });

  // The looks do not depend on the database: checked once.
  if (dialect === TEST_DIALECTS[0]) {
    describe.each(LOOKS)("in the $theme theme", ({ theme, viewport }) => {
      it("every tab, dialog and confirmation passes axe and fits the window", async () => {
        await withPage({ viewport }, async (testPage) => {
          const page = await site.signedIn(testPage, "editor");
          await chooseTheme(testPage, site.base, theme);
          await visit(page, `${site.base}/admin/about`);
          await checkState(page, theme, "Biography & Content");
          const form = page.getByTestId("biography-form");
          await form.getByLabel("Name").fill("");
          await form.getByLabel("Name").blur();
          await form.getByText("Name is required").waitFor();
          await checkState(page, theme, "Biography & Content with a field message");

          for (const list of LISTS) {
            await page.getByRole("tab", { name: list.tab }).click();
            const panel = page.getByTestId(list.list);
            await panel.getByTestId("empty-state").waitFor();
            await checkState(page, theme, `${list.tab}, empty`);
            await panel.getByRole("button", { name: `Add ${list.title}` }).click();
            const dialog = page.getByRole("dialog", { name: `Add ${list.title}` });
            await dialog.getByRole("button", { name: `Add ${list.title}` }).click();
            await dialog.getByText(list.required[0] as string).waitFor();
            await checkState(page, theme, `the Add ${list.title} dialog with its messages`);
            await page.keyboard.press("Escape");
            await dialog.waitFor({ state: "hidden" });
          }

          // A list with items (put there for this look only), its edit dialog and its delete confirmation.
          await site.database((db) =>
            db
              .insertInto("skills")
              .values([
                { id: "skill-look-1", name: "Cloud security", level: 85, category: "Cloud", order_index: 0 },
                { id: "skill-look-2", name: "Python", level: 70, category: null, order_index: 1 },
              ])
              .execute(),
          );
          try {
            await visit(page, `${site.base}/admin/about?tab=skills`);
            const skill = item(page, "skills", "Python");
            await checkState(page, theme, "Skills with items");
            await skill.getByRole("button", { name: "Edit Python" }).click();
            await page.getByRole("dialog", { name: "Edit Skill" }).waitFor();
            await checkState(page, theme, "the Edit Skill dialog");
            await page.keyboard.press("Escape");
            await skill.getByRole("button", { name: "Delete Python" }).click();
            await page.getByRole("alertdialog", { name: "Delete Python?" }).waitFor();
            await checkState(page, theme, "the delete confirmation");
            await page.keyboard.press("Escape");
          } finally {
            await site.database((db) => db.deleteFrom("skills").where("id", "like", "skill-look-%").execute());
          }
        });
      });
    });
  }

  it("Biography & Content saves every text together; an empty name is refused; the About page shows it at once", async () => {
    await withPage({}, async (testPage) => {
      const page = await site.signedIn(testPage, "editor");
      const response = await visit(page, `${site.base}/admin/about`);
      expect(response?.status()).toBe(200);
      expect(await page.getByRole("tab", { name: "Biography & Content" }).getAttribute("aria-selected")).toBe("true");
      const form = page.getByTestId("biography-form");

      const posts: string[] = [];
      page.on("request", (request) => {
        if (request.method() === "POST") posts.push(request.url());
      });
      await form.getByLabel("Name").fill("");
      await form.getByRole("button", { name: "Save Content" }).click();
      await form.getByText("Name is required").waitFor();
      expect(await form.getByLabel("Name").getAttribute("aria-invalid")).toBe("true");
      expect(posts).toEqual([]);

      await form.getByLabel("Name").fill("Ada Lovelace");
      await form.getByLabel("Title").fill("Security Engineer");
      await form.getByLabel("Biography paragraph 2").fill("Breaks things <carefully> & fixes them.");
      await form.getByLabel("Biography paragraph 3").fill("");
      await form.getByLabel("Mission statement").fill("Make security knowledge free.");
      await form.getByRole("button", { name: "Save Content" }).click();
      await toast(page, "Content updated successfully!").waitFor();

      let html = await publicAbout(site.base);
      expect(html).toContain(">Ada Lovelace</h1>");
      expect(html).toContain("Security Engineer");
      expect(html).toContain("Breaks things &lt;carefully&gt; &amp; fixes them.");
      expect(html).toContain("Make security knowledge free.");

      // The page's new revisions came back with the save: a second save is not stale.
      await form.getByLabel("Title").fill("Principal Security Engineer");
      await form.getByRole("button", { name: "Save Content" }).click();
      await expect.poll(async () => (await publicAbout(site.base)).includes("Principal Security Engineer")).toBe(true);
      html = await publicAbout(site.base);
      expect(html).toContain(">Ada Lovelace</h1>");

      // The tab is in the address: a reload keeps it.
      await page.getByRole("tab", { name: "Skills" }).click();
      await page.waitForURL(/\?tab=skills$/);
      await visit(page, page.url());
      expect(await page.getByRole("tab", { name: "Skills" }).getAttribute("aria-selected")).toBe("true");
    });
  });

  it("refuses a stale Biography & Content save with 409, keeping what was typed", async () => {
    await withPage({}, async (testPage) => {
      const page = await site.signedIn(testPage, "editor");
      await visit(page, `${site.base}/admin/about`);
      // Someone else saves the mission after this page was loaded.
      await site.database((db) =>
        db
          .updateTable("site_content")
          .set((eb) => ({ value: "Changed elsewhere.", revision: eb("revision", "+", 1) }))
          .where("key", "=", "about_mission")
          .execute(),
      );
      const form = page.getByTestId("biography-form");
      await expectStaleSaveRefused(page, {
        form,
        field: form.getByLabel("Mission statement"),
        typed: "My version.",
        save: form.getByRole("button", { name: "Save Content" }),
        message: STALE_CONTENT,
        failure: "Failed to update content",
      });
      const mission = await site.database((db) =>
        db.selectFrom("site_content").select("value").where("key", "=", "about_mission").executeTakeFirstOrThrow(),
      );
      expect(mission.value).toBe("Changed elsewhere.");
    });
  });

  it.each(LISTS)(
    "$tab: adds, edits, moves up, reorders by keyboard and deletes, with the toasts and the public page",
    async (list) => {
      await withPage({}, async (testPage) => {
        const page = await site.signedIn(testPage, "editor");
        await visit(page, `${site.base}/admin/about?tab=${list.list}`);
        const panel = page.getByTestId(list.list);
        expect(await textOf(panel.getByTestId("empty-state"))).toBe(
          `No ${list.tab.toLowerCase()} yet. Add your first ${list.thing.toLowerCase()}!`,
        );
        const publicOrder = () => publicItems(site.base, list.publicTestId);
        const expectPublic = async (names: string[]) => {
          expect(await publicOrder()).toEqual(names);
        };
        // The items by order_index, each rewritten to its position.
        const savedOrder = () =>
          site.database(async (db) => {
            const rows = await dynamicTables(db)
              .selectFrom(list.table)
              .select([list.nameColumn, "order_index"])
              .orderBy("order_index")
              .execute();
            expect(rows.map((row) => row.order_index)).toEqual(rows.map((_, index) => index));
            return rows.map((row) => row[list.nameColumn]);
          });

        // Nothing is sent while a required field is empty.
        const add = panel.getByRole("button", { name: `Add ${list.title}` });
        await add.click();
        const dialog = page.getByRole("dialog", { name: `Add ${list.title}` });
        await dialog.getByRole("button", { name: `Add ${list.title}` }).click();
        for (const message of list.required) await dialog.getByText(message).waitFor();

        const [first, second] = [`First ${list.thing}`, `Second ${list.thing}`];
        await list.fill(dialog, page, first);
        await dialog.getByRole("button", { name: `Add ${list.title}` }).click();
        await toast(page, `${list.thing} added successfully!`).waitFor();
        await dialog.waitFor({ state: "hidden" });
        await add.click();
        await list.fill(dialog, page, second);
        await dialog.getByRole("button", { name: `Add ${list.title}` }).click();
        await dialog.waitFor({ state: "hidden" });
        await expect.poll(() => order(page, list.list)).toEqual([first, second]);
        await expectPublic([first, second]);

        // Editing keeps the other fields.
        await item(page, list.list, first)
          .getByRole("button", { name: `Edit ${first}` })
          .click();
        const editDialog = page.getByRole("dialog", { name: `Edit ${list.title}` });
        await list.edit(editDialog, page);
        await editDialog.getByRole("button", { name: "Save changes" }).click();
        await toast(page, `${list.thing} updated successfully!`).waitFor();
        await editDialog.waitFor({ state: "hidden" });
        await expect.poll(() => textOf(item(page, list.list, first))).toMatch(list.edited);

        // Move up: the first cannot; the second swaps with it.
        const moveFirst = item(page, list.list, first).getByRole("button", { name: `Move ${first} up` });
        expect(await moveFirst.getAttribute("aria-disabled")).toBe("true");
        await item(page, list.list, second)
          .getByRole("button", { name: `Move ${second} up` })
          .click();
        await toast(page, "Order updated successfully!").waitFor();
        await expect.poll(() => order(page, list.list)).toEqual([second, first]);
        expect(await savedOrder()).toEqual([second, first]);
        await expectPublic([second, first]);

        // Drag and drop by keyboard: Space picks the first up, ArrowDown moves it, Space drops it.
        await dragDownByKeyboard(page, second, 1, 2);
        await expect.poll(() => order(page, list.list)).toEqual([first, second]);
        await expect.poll(savedOrder).toEqual([first, second]);
        await toast(page, "Order updated successfully!").last().waitFor();
        await expectPublic([first, second]);

        // Deleting asks first, saying it cannot be undone.
        await item(page, list.list, first)
          .getByRole("button", { name: `Delete ${first}` })
          .click();
        const confirm = page.getByRole("alertdialog", { name: `Delete ${first}?` });
        expect(await textOf(confirm)).toContain("This action cannot be undone.");
        await confirm.getByRole("button", { name: "Delete" }).click();
        await toast(page, `${list.thing} deleted successfully!`).waitFor();
        await expect.poll(() => order(page, list.list)).toEqual([second]);
        await expectPublic([second]);
      });
    },
  );

  it("refuses a Biography & Content save over a change it never showed, after another form reloaded the page's data", async () => {
    await withPage({}, async (testPage) => {
      const page = await site.signedIn(testPage, "editor");
      await visit(page, `${site.base}/admin/about`);
      const form = page.getByTestId("biography-form");
      const shown = await form.getByLabel("Mission statement").inputValue();
      await site.database((db) =>
        db
          .updateTable("site_content")
          .set((eb) => ({ value: "A colleague's mission.", revision: eb("revision", "+", 1) }))
          .where("key", "=", "about_mission")
          .execute(),
      );
      // A skill added on another tab reloads the page's data; the form still shows what it showed.
      await page.getByRole("tab", { name: "Skills" }).click();
      await page.getByRole("button", { name: "Add Skill" }).click();
      const dialog = page.getByRole("dialog", { name: "Add Skill" });
      await dialog.getByLabel("Name").fill("Incident response");
      await dialog.getByRole("button", { name: "Add Skill" }).click();
      await toast(page, "Skill added successfully!").waitFor();
      await page.getByRole("tab", { name: "Biography & Content" }).click();
      await form.waitFor();
      expect(await form.getByLabel("Mission statement").inputValue()).toBe(shown);

      const answered = page.waitForResponse((response) => response.request().method() === "POST");
      await form.getByLabel("Name").fill("Another name");
      await form.getByRole("button", { name: "Save Content" }).click();
      expect((await answered).status()).toBe(409);
      await toast(page, STALE_CONTENT).waitFor();
      const mission = await site.database((db) =>
        db.selectFrom("site_content").select("value").where("key", "=", "about_mission").executeTakeFirstOrThrow(),
      );
      expect(mission.value).toBe("A colleague's mission.");
    });
  });

  it("refuses a reorder of a list changed since (409) and shows the server's order again", async () => {
    // Other tests of this file may have left skills before these three.
    const names = ["Alpha skill", "Bravo skill", "Charlie skill"];
    const ours = async (page: Page) => (await order(page, "skills")).filter((name) => names.includes(name));
    for (const name of names) {
      expect((await site.postForm("/admin/about", { intent: "create-skill", name }, "editor")).status).toBe(200);
    }
    await withPage({}, async (testPage) => {
      const page = await site.signedIn(testPage, "editor");
      await visit(page, `${site.base}/admin/about?tab=skills`);
      await expect.poll(() => ours(page)).toEqual(names);
      const before = await order(page, "skills");
      // A colleague moves Charlie up after the page was opened.
      const { charlie, revision } = await site.database(async (db) => ({
        charlie: (
          await db.selectFrom("skills").select("id").where("name", "=", "Charlie skill").executeTakeFirstOrThrow()
        ).id,
        revision: await getListRevision(db, listKeys.skills),
      }));
      const moved = await site.postForm(
        "/admin/about",
        { intent: "move-skill-up", id: charlie, listRevision: String(revision) },
        "editor",
      );
      expect(moved.status).toBe(200);

      const refused = page.waitForResponse((response) => response.request().method() === "POST");
      await dragDownByKeyboard(page, "Alpha skill", before.indexOf("Alpha skill") + 1, before.length);
      expect((await refused).status()).toBe(409);
      await toast(page, "This list was changed by someone else since you opened it.").waitFor();
      // The page's data came back: the colleague's order, not the refused one.
      await expect.poll(() => ours(page)).toEqual(["Alpha skill", "Charlie skill", "Bravo skill"]);
    });
  });

  it("picks a skill's level on the slider by keyboard, in steps of 5, shown as a percent", async () => {
    await withPage({}, async (testPage) => {
      const page = await site.signedIn(testPage, "editor");
      await visit(page, `${site.base}/admin/about?tab=skills`);
      await page.getByRole("button", { name: "Add Skill" }).click();
      const dialog = page.getByRole("dialog", { name: "Add Skill" });
      await dialog.getByLabel("Name").fill("Threat modelling");
      const slider = dialog.getByRole("slider", { name: "Level" });
      expect(await slider.getAttribute("aria-valuenow")).toBe("50");
      expect(await textOf(dialog.locator("output"))).toBe("50%");
      await slider.focus();
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("ArrowLeft");
      expect(await slider.getAttribute("aria-valuenow")).toBe("55");
      expect(await textOf(dialog.locator("output"))).toBe("55%");
      await dialog.getByRole("button", { name: "Add Skill" }).click();
      await toast(page, "Skill added successfully!").waitFor();
      await expect.poll(() => textOf(item(page, "skills", "Threat modelling"))).toContain("55%");
      // React separates the number and the sign with a comment.
      const html = (await publicAbout(site.base)).replaceAll("<!-- -->", "");
      expect(html).toMatch(/Threat modelling<\/span>[\s\S]*?>55%<[\s\S]*?aria-valuenow="55"/);
    });
  });

  it("keeps what was typed into Biography & Content after a look at another tab", async () => {
    await withPage({}, async (testPage) => {
      const page = await site.signedIn(testPage, "editor");
      await visit(page, `${site.base}/admin/about`);
      const form = page.getByTestId("biography-form");
      await form.getByLabel("Mission statement").fill("Typed, not saved yet.");
      await page.getByRole("tab", { name: "Certifications" }).click();
      await page.waitForURL(/\?tab=certifications$/);
      await page.getByTestId("certifications").waitFor();
      await page.getByRole("tab", { name: "Biography & Content" }).click();
      await form.waitFor();
      expect(await form.getByLabel("Mission statement").inputValue()).toBe("Typed, not saved yet.");
    });
  });

  it("adds a certification from the keyboard alone; Escape closes the dialog and focus returns", async () => {
    await withPage({}, async (testPage) => {
      const page = await site.signedIn(testPage, "editor");
      await visit(page, `${site.base}/admin/about?tab=certifications`);
      const add = page.getByRole("button", { name: "Add Certification" });
      await expectKeyboardDialog(page, add);

      await add.focus();
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog", { name: "Add Certification" });
      await dialog.waitFor();
      // Focus starts in the Name field; Tab goes through Organization, Description, Date and Status.
      await page.keyboard.type("Typed from the keyboard");
      await page.keyboard.press("Tab");
      await page.keyboard.type("OffSec");
      await page.keyboard.press("Tab");
      await page.keyboard.press("Tab");
      await page.keyboard.type("2025");
      await page.keyboard.press("Tab");
      // A closed list box picks by its first letter; Enter in the Date field sends the form.
      await page.keyboard.type("P");
      await page.keyboard.press("Shift+Tab");
      await page.keyboard.press("Enter");
      await toast(page, "Certification added successfully!").waitFor();
      await dialog.waitFor({ state: "hidden" });
      await expect
        .poll(() => textOf(item(page, "certifications", "Typed from the keyboard")))
        .toMatch(/Planned.*OffSec · 2025/);
      await expect.poll(() => add.evaluate((element) => element === document.activeElement)).toBe(true);
    });
  });
});
