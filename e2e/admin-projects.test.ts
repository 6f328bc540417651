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
import { visit, waitForHydration } from "./helpers/hydration.ts";
import { setUpSignedInSite } from "./helpers/signed-in-site.ts";

/**
 * /admin/projects in a real browser, on both databases: chapters and their sections
 * created, edited, reordered (buttons, and drag and drop from the keyboard) and
 * deleted with the spec's messages and toasts; the section editor's live preview (the
 * reader's own rendering, Shiki included) without reloading the page's data; the draft
 * preview of an unpublished chapter; stale edits and reorders refused; the public
 * reader showing each write at once; every state in both themes (light at 1280 px,
 * dark at 390 px) with axe, once.
 */

const ACCOUNTS = {
  editor: { email: "petra@example.com", name: "Petra Projects", role: "editor" as const },
  colleague: { email: "colin@example.com", name: "Colin Colleague", role: "editor" as const },
};

const STALE_CHAPTER = "This chapter was changed by someone else since you opened it. Reload to see the latest version.";
const STALE_LIST = "This list was changed by someone else since you opened it. Reload to see the latest version.";

/** Chapters the two-person tests work on, each with three text sections. */
const SEEDED = [
  { id: "chapter-contested", slug: "contested-chapter", title: "Contested chapter", sections: ["Ante", "Bet", "Call"] },
  { id: "chapter-ordered", slug: "ordered-chapter", title: "Ordered chapter", sections: ["Alpha", "Bravo", "Charlie"] },
  { id: "chapter-doomed", slug: "doomed-chapter", title: "Doomed chapter", sections: [] },
] as const;

function chapterRow(page: Page, title: string): Locator {
  return page.getByTestId("chapter-row").filter({ has: page.getByRole("link", { name: title, exact: true }) });
}

const excerpts = (page: Page) => page.getByTestId("section-excerpt").allTextContents();

/** The chosen chapter's sections as the list shows them. */
async function chooseChapter(page: Page, title: string) {
  await chapterRow(page, title).getByRole("link", { name: title, exact: true }).click();
  await page.waitForURL(/\?chapter=/);
  await page.getByTestId("sections-panel").getByText(title).waitFor();
}

/** Drag and drop from the keyboard (dnd-kit): Space picks the item up, an arrow moves it, Space drops it. */
async function dragByKeyboard(page: Page, handle: Locator, key: "ArrowDown" | "ArrowUp") {
  const announcements = page.locator("[id^=DndLiveRegion]");
  await handle.focus();
  await page.keyboard.press("Space");
  await expect.poll(() => handle.getAttribute("aria-pressed")).toBe("true");
  // The keyboard sensor starts listening for arrows in a timeout set at the pick-up (an
  // arrow pressed before it was lost on a busy CI machine): one queued now runs after it.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve)));
  // "Picked up …, position N of M." or "… is now at position N of M."
  const from = Number(/position (\d+) of/.exec((await announcements.textContent()) ?? "")?.[1]);
  await page.keyboard.press(key);
  const to = key === "ArrowDown" ? from + 1 : from - 1;
  await expect.poll(() => announcements.textContent()).toMatch(new RegExp(`is now at position ${to} of`));
  await page.keyboard.press("Space");
}

describe.each(TEST_DIALECTS)("/admin/projects on %s", (dialect) => {
  const site = setUpSignedInSite({
    dialect,
    accounts: ACCOUNTS,
    subnet: "10.0.31",
    seed: async ({ db }) => {
      const now = new Date().toISOString();
      for (const [index, chapter] of SEEDED.entries()) {
        const { sections, ...row } = chapter;
        await db
          .insertInto("chapters")
          .values({ ...row, number: index + 1, order_index: index, published: true, created_at: now, updated_at: now })
          .execute();
        for (const [position, content] of sections.entries()) {
          await db
            .insertInto("chapter_sections")
            .values({ id: `${row.id}-${position}`, chapter_id: row.id, type: "text", content, order_index: position })
            .execute();
        }
      }
    },
  });

  /** The public page as an anonymous visitor gets it (through the page cache); `article`: the chapter alone. */
  const publicPage = async (path: string) => {
    const response = await fetch(`${site.base}${path}`);
    const html = await response.text();
    return {
      status: response.status,
      html,
      article: html.slice(html.indexOf('data-testid="chapter"')),
      url: response.url,
    };
  };

  it("the dashboard's Create a chapter lands here, one click away from the New Chapter dialog", async () => {
    await withPage({}, async (testPage) => {
      const page = await site.signedIn(testPage, "editor");
      await visit(page, `${site.base}/admin`);
      await page.getByRole("link", { name: /Create a chapter/ }).click();
      await page.waitForURL(`${site.base}/admin/projects`);
      await page.getByRole("button", { name: "New Chapter" }).click();
      await page.getByRole("dialog", { name: "New Chapter" }).waitFor();
    });
  });

  describe.each(looksOn(dialect))("in the $theme theme", ({ theme, viewport }) => {
    const title = `Recon basics ${theme}`;
    const renamed = `Recon fundamentals ${theme}`;
    const paragraphs = ["Know your network before you scan it.", "Then scan only what you own."] as const;
    const code = "nmap -sV --top-ports 100 10.0.0.0/24";

    it("creates, edits, reorders and deletes a chapter and its sections; the reader follows at once", async () => {
      await withPage({ viewport }, async (testPage) => {
        const page = await site.signedIn(testPage, "editor");
        await chooseTheme(testPage, site.base, theme);
        expect((await visit(page, `${site.base}/admin/projects`))?.status()).toBe(200);
        expect(await textOf(page.getByRole("heading", { level: 1 }))).toBe("Projects & Courses");
        await page.getByText("Select a chapter to view and manage sections").waitFor();
        await checkState(page, theme, "no chapter chosen");

        // A chapter: its title is required (spaces alone are not a title); published by default, numbered next.
        const highest = await site.database((db) =>
          db
            .selectFrom("chapters")
            .select((eb) => eb.fn.max("number").as("number"))
            .executeTakeFirstOrThrow(),
        );
        const number = String(Number(highest.number) + 1);
        await page.getByRole("button", { name: "New Chapter" }).click();
        const create = page.getByRole("dialog", { name: "New Chapter" });
        expect(await create.getByRole("switch", { name: "Published" }).getAttribute("aria-checked")).toBe("true");
        await create.getByLabel("Title").fill("   ");
        await create.getByRole("button", { name: "Create Chapter" }).click();
        await create.getByText("Chapter title is required").waitFor();
        expect(await create.getByLabel("Title").getAttribute("aria-invalid")).toBe("true");
        await checkState(page, theme, "the new chapter dialog with its message");
        await create.getByLabel("Title").fill(`  ${title}  `);
        await create.getByRole("button", { name: "Create Chapter" }).click();
        await toast(page, "Chapter created successfully!").waitFor();
        await create.waitFor({ state: "hidden" });
        const row = chapterRow(page, title);
        // The cell carries its column's name for phones.
        expect((await textOf(row.getByRole("cell").first())).replace(/^No\.\s*/, "")).toBe(number);
        expect(await textOf(row)).toContain("Published");
        const previewHref = await row.getByRole("link", { name: `Preview ${title}` }).getAttribute("href");
        const path = previewHref?.replace(/\?preview$/, "") ?? "";
        expect((await publicPage(path)).html).toContain(title);

        // The chosen chapter is in the address, so it survives a reload.
        await chooseChapter(page, title);
        await page.reload();
        await waitForHydration(page);
        await page.getByText("No sections yet. Add your first section!").waitFor();
        await checkState(page, theme, "a chapter without sections");

        // A text section: content required; the preview is the reader's paragraphs.
        await page.getByRole("button", { name: "Add Section" }).click();
        const add = page.getByRole("dialog", { name: "Add Section" });
        await add.getByRole("button", { name: "Add Section" }).click();
        await add.getByText("Section content is required").waitFor();
        const text = paragraphs.join("\n\n");
        await add.getByLabel("Text", { exact: true }).fill(text);
        await expect.poll(() => textOf(add.getByTestId("character-count"))).toBe(`${text.length} characters`);
        expect(await textOf(add)).toContain("A blank line starts a new paragraph.");
        const preview = add.getByTestId("section-preview");
        await expect.poll(() => preview.locator("p").allTextContents()).toEqual(paragraphs);
        await checkState(page, theme, "the section editor with its preview");
        await add.getByRole("button", { name: "Add Section" }).click();
        await toast(page, "Section added successfully!").waitFor();
        await add.waitFor({ state: "hidden" });

        // A code section: highlighted by Shiki on the server, language and caption beside it. Asking for
        // the preview saves nothing, so the page's data is not loaded again.
        await page.getByTestId("section-excerpt").first().waitFor();
        const pageLoads: string[] = [];
        const previews: string[] = [];
        page.on("request", (request) => {
          const address = new URL(request.url());
          if (request.method() === "GET" && address.pathname.endsWith(".data")) pageLoads.push(request.url());
          if (request.method() === "POST" && request.postData()?.includes("preview-section"))
            previews.push(request.url());
        });
        await page.getByRole("button", { name: "Add Section" }).click();
        await choose(page, add.getByRole("combobox", { name: "Section type" }), "Code");
        // Nothing typed yet: the content's message waits for a save or for the field to be left.
        expect(await add.getByText("Section content is required").count()).toBe(0);
        await add.getByLabel("Code", { exact: true }).fill(code);
        await add.getByLabel("Language").fill("bash");
        await add.getByLabel("Caption").fill("A first sweep");
        const highlighted = preview.locator("pre.shiki");
        await highlighted.waitFor();
        expect(await highlighted.locator("span[style*='--shiki-light']").count()).toBeGreaterThan(1);
        await preview.getByText("A first sweep").waitFor();
        expect(previews.length).toBeGreaterThan(0);
        expect(pageLoads, "the live preview reloaded the page's data").toEqual([]);
        await add.getByRole("button", { name: "Add Section" }).click();
        await toast(page, "Section added successfully!").first().waitFor();
        await add.waitFor({ state: "hidden" });
        await expect.poll(() => excerpts(page)).toEqual([paragraphs.join(" "), code]);
        let reader = await publicPage(path);
        expect(reader.html).toContain('class="shiki');
        expect(reader.article.indexOf(paragraphs[1])).toBeLessThan(reader.article.indexOf("A first sweep"));

        // One step up with its button, from the keyboard: the first cannot move up, the last cannot move down.
        expect(await page.getByRole("button", { name: "Move Text section 1 up" }).isDisabled()).toBe(true);
        expect(await page.getByRole("button", { name: "Move Code section 2 down" }).isDisabled()).toBe(true);
        await page.getByRole("button", { name: "Move Code section 2 up" }).focus();
        await page.keyboard.press("Enter");
        await toast(page, "Order updated successfully!").waitFor();
        await expect.poll(() => excerpts(page)).toEqual([code, paragraphs.join(" ")]);
        // Focus stays on the moved section, on the button that can still move it.
        await expect
          .poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label")))
          .toBe("Move Code section 1 down");
        reader = await publicPage(path);
        expect(reader.article.indexOf("A first sweep")).toBeLessThan(reader.article.indexOf(paragraphs[0]));

        // Drag and drop from the keyboard: the handle, Space, an arrow, Space.
        const dropped = page.waitForResponse((response) => response.request().method() === "POST");
        await dragByKeyboard(page, page.getByRole("button", { name: "Reorder Code section 1" }), "ArrowDown");
        expect((await dropped).status()).toBe(200);
        await expect.poll(() => excerpts(page)).toEqual([paragraphs.join(" "), code]);
        await toast(page, "Order updated successfully!").first().waitFor();
        reader = await publicPage(path);
        expect(reader.article.indexOf(paragraphs[0])).toBeLessThan(reader.article.indexOf("A first sweep"));

        // Editing a section: the dialog opens on its values and previews the change.
        await page.getByRole("button", { name: "Edit Text section 1" }).click();
        const edit = page.getByRole("dialog", { name: "Edit Section" });
        const content = edit.getByLabel("Text", { exact: true });
        expect(await content.inputValue()).toBe(text);
        await content.fill("Scope first.\n\nScan second.\n\nReport third.");
        await expect
          .poll(() => edit.getByTestId("section-preview").locator("p").allTextContents())
          .toEqual(["Scope first.", "Scan second.", "Report third."]);
        await edit.getByRole("button", { name: "Save changes" }).click();
        await toast(page, "Section updated successfully!").waitFor();
        await edit.waitFor({ state: "hidden" });
        expect((await publicPage(path)).html).toContain("Report third.");

        // Editing the chapter: a new title gives a new address; the old one redirects to it.
        await chapterRow(page, title)
          .getByRole("button", { name: `Edit ${title}` })
          .click();
        const editChapter = page.getByRole("dialog", { name: "Edit Chapter" });
        expect(await editChapter.getByLabel("Number").inputValue()).toBe(number);
        await editChapter.getByLabel("Title").fill(renamed);
        await checkState(page, theme, "the edit chapter dialog");
        await editChapter.getByRole("button", { name: "Save changes" }).click();
        await toast(page, "Chapter updated successfully!").waitFor();
        await editChapter.waitFor({ state: "hidden" });
        const moved = await publicPage(path);
        expect(moved.url).not.toBe(`${site.base}${path}`);
        expect(moved.html).toContain(renamed);
        expect(moved.html).toContain("Report third.");

        // Deleting a section asks first, saying it cannot be undone.
        await page.getByRole("button", { name: "Delete Code section 2" }).click();
        const confirmSection = page.getByRole("alertdialog", { name: "Delete Code section 2?" });
        expect(await textOf(confirmSection)).toContain("This action cannot be undone.");
        await checkState(page, theme, "the delete confirmation");
        await confirmSection.getByRole("button", { name: "Delete section" }).click();
        await toast(page, "Section deleted successfully!").waitFor();
        await expect.poll(() => excerpts(page)).toEqual(["Scope first. Scan second. Report third."]);
        expect((await publicPage(moved.url.replace(site.base, ""))).html).not.toContain("A first sweep");

        // Deleting the chapter deletes its sections, and says so.
        await chapterRow(page, renamed)
          .getByRole("button", { name: `Delete ${renamed}` })
          .click();
        const confirmChapter = page.getByRole("alertdialog", { name: `Delete ${renamed}?` });
        expect(await textOf(confirmChapter)).toContain("all of its sections");
        expect(await textOf(confirmChapter)).toContain("This action cannot be undone.");
        await confirmChapter.getByRole("button", { name: "Delete chapter" }).click();
        await toast(page, "Chapter deleted successfully!").waitFor();
        await chapterRow(page, renamed).waitFor({ state: "detached" });
        await page.getByText("Select a chapter to view and manage sections").waitFor();
        expect((await publicPage(moved.url.replace(site.base, ""))).status).toBe(404);
        const left = await site.database((db) =>
          db.selectFrom("chapter_sections").select("id").where("content", "like", "Scope first.%").execute(),
        );
        expect(left).toEqual([]);
      });
    });

    it("a draft: previewed by editors as visitors will see it, a 404 for visitors, published by its switch", async () => {
      const draft = `Unreleased lab ${theme}`;
      await withPage({ viewport }, async (testPage) => {
        const page = await site.signedIn(testPage, "editor");
        await chooseTheme(testPage, site.base, theme);
        await visit(page, `${site.base}/admin/projects`);
        await page.getByRole("button", { name: "New Chapter" }).click();
        const create = page.getByRole("dialog", { name: "New Chapter" });
        await create.getByLabel("Title").fill(draft);
        await create.getByRole("switch", { name: "Published" }).click();
        await create.getByRole("button", { name: "Create Chapter" }).click();
        await toast(page, "Chapter created successfully!").waitFor();
        const row = chapterRow(page, draft);
        expect(await textOf(row)).toContain("Draft");
        const previewLink = row.getByRole("link", { name: `Preview ${draft}` });
        expect(await previewLink.getAttribute("target")).toBe("_blank");
        const href = (await previewLink.getAttribute("href")) ?? "";
        const path = href.replace(/\?preview$/, "");

        // The editor's preview, in a new tab, is the public reader with a notice.
        const [previewPage] = await Promise.all([page.context().waitForEvent("page"), previewLink.click()]);
        await previewPage.waitForLoadState();
        expect(await textOf(previewPage.getByTestId("draft-preview-notice"))).toContain("Draft preview");
        expect(await textOf(previewPage.getByRole("heading", { level: 1 }))).toBe(draft);
        // Listed among the chapters where it will stand (the sidebar is collapsed on phones).
        expect(await previewPage.locator('nav[aria-label="Chapters"] a', { hasText: draft }).count()).toBeGreaterThan(
          0,
        );
        await checkState(previewPage, theme, "the draft preview");
        await previewPage.close();

        // Visitors: no such page, and no trace of it in the reader.
        for (const address of [href, path]) expect((await publicPage(address)).status).toBe(404);
        expect((await publicPage("/projects")).html).not.toContain(draft);
        const anonymous = await newPage({ viewport });
        try {
          const response = await anonymous.page.goto(`${site.base}${href}`);
          expect(response?.status()).toBe(404);
          await anonymous.page.getByText("Oops! Page not found").waitFor();
        } finally {
          await anonymous.close();
        }

        // Switched on: published at once, through the content-published hook (the newsletter notification).
        await row.getByRole("button", { name: `Edit ${draft}` }).click();
        const edit = page.getByRole("dialog", { name: "Edit Chapter" });
        expect(await edit.getByRole("switch", { name: "Published" }).getAttribute("aria-checked")).toBe("false");
        await edit.getByRole("switch", { name: "Published" }).click();
        await edit.getByRole("button", { name: "Save changes" }).click();
        await toast(page, "Chapter updated successfully!").waitFor();
        await edit.waitFor({ state: "hidden" });
        // The toast comes with the action's answer; the list, once the page's data is reloaded.
        await expect.poll(() => textOf(row)).toContain("Published");
        expect((await publicPage(path)).html).toContain(draft);
        const notification = () =>
          site.database((db) =>
            db
              .selectFrom("notifications")
              .innerJoin("chapters", "chapters.id", "notifications.item_id")
              .select("notifications.status")
              .where("chapters.title", "=", draft)
              .executeTakeFirst(),
          );
        expect((await notification())?.status).toBe("pending");

        // Switched off again within the grace period: withdrawn, and the notification with it.
        await row.getByRole("button", { name: `Edit ${draft}` }).click();
        await edit.getByRole("switch", { name: "Published" }).click();
        await edit.getByRole("button", { name: "Save changes" }).click();
        await toast(page, "Chapter updated successfully!").first().waitFor();
        await edit.waitFor({ state: "hidden" });
        expect((await publicPage(path)).status).toBe(404);
        expect((await notification())?.status).toBe("cancelled");
      });
    });
  });

  it("keeps a chapter and a section holding an unbroken word (a pasted hash) within a phone's width", async () => {
    const hash = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
    await site.database(async (db) => {
      await db
        .insertInto("chapters")
        .values({ id: "chapter-long-word", slug: "long-word", title: `Hash ${hash}`, number: 9, order_index: 9 })
        .execute();
      await db
        .insertInto("chapter_sections")
        .values({
          id: "section-long-word",
          chapter_id: "chapter-long-word",
          type: "text",
          content: hash,
          order_index: 0,
        })
        .execute();
    });
    try {
      await withPage({ viewport: MOBILE_VIEWPORT }, async (testPage) => {
        const page = await site.signedIn(testPage, "editor");
        await visit(page, `${site.base}/admin/projects?chapter=chapter-long-word`);
        await page.getByTestId("section-excerpt").filter({ hasText: hash }).waitFor();
        await expectNoSideScroll(page, "a chapter and a section holding a hash");
      });
    } finally {
      await site.database((db) => db.deleteFrom("chapters").where("id", "=", "chapter-long-word").execute());
    }
  });

  it("creates a chapter from the keyboard alone; Escape closes each dialog and focus returns", async () => {
    await withPage({}, async (testPage) => {
      const page = await site.signedIn(testPage, "editor");
      await visit(page, `${site.base}/admin/projects`);
      const newChapter = page.getByRole("button", { name: "New Chapter" });
      await expectKeyboardDialog(page, newChapter);

      await newChapter.focus();
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog", { name: "New Chapter" });
      await dialog.waitFor();
      // Focus starts in the Title field; Enter in a field submits the form.
      await page.keyboard.type("Typed chapter");
      await page.keyboard.press("Tab");
      await page.keyboard.type("42");
      await page.keyboard.press("Enter");
      await toast(page, "Chapter created successfully!").waitFor();
      await dialog.waitFor({ state: "hidden" });
      expect(await textOf(chapterRow(page, "Typed chapter"))).toMatch(/42/);
      await expect.poll(() => newChapter.evaluate((element) => element === document.activeElement)).toBe(true);

      // The section dialog too: Escape closes it and focus goes back to Add Section.
      await chooseChapter(page, "Typed chapter");
      await expectKeyboardDialog(page, page.getByRole("button", { name: "Add Section" }));
    });
  });

  it("says Please select a chapter first when the chapter went away while its section was written", async () => {
    await withPage({}, async (testPage) => {
      const page = await site.signedIn(testPage, "editor");
      await visit(page, `${site.base}/admin/projects`);
      await chooseChapter(page, "Doomed chapter");
      await page.getByRole("button", { name: "Add Section" }).click();
      const add = page.getByRole("dialog", { name: "Add Section" });
      await add.getByLabel("Text", { exact: true }).fill("Written for a chapter about to go.");

      // Meanwhile, a colleague deletes the chapter.
      const deleted = await site.postForm(
        "/admin/projects",
        { intent: "delete-chapter", id: "chapter-doomed" },
        "colleague",
      );
      expect(deleted.status).toBe(200);

      await add.getByRole("button", { name: "Add Section" }).click();
      await add.getByTestId("form-errors").getByText("Please select a chapter first").waitFor();
      await toast(page, "Failed to add section: Please select a chapter first").waitFor();
      expect(await add.getByLabel("Text", { exact: true }).inputValue()).toBe("Written for a chapter about to go.");
    });
  });

  it("refuses a chapter save from a dialog opened before someone else's save (409), keeping what was typed", async () => {
    await withPage({}, async (testPage) => {
      const first = await site.signedIn(testPage, "editor");
      const second = await newPage();
      try {
        await expectStaleDialogSaveRefused({
          first,
          second: await site.signedIn(second, "colleague"),
          open: async (on) => {
            await visit(on, `${site.base}/admin/projects`);
            await chapterRow(on, "Contested chapter").getByRole("button", { name: "Edit Contested chapter" }).click();
            return on.getByRole("dialog", { name: "Edit Chapter" });
          },
          label: "Title",
          values: { fresh: "Contested chapter, as Colin left it", stale: "Contested chapter, as Petra typed it" },
          updated: "Chapter updated successfully!",
          message: STALE_CHAPTER,
          failure: "Failed to update chapter",
        });
        expect((await publicPage("/projects/contested-chapter-as-colin-left-it")).html).toContain("as Colin left it");
      } finally {
        await second.close();
      }
    });
  });

  it("refuses a reorder of a list changed since (409) and shows the server's order again", async () => {
    await withPage({}, async (testPage) => {
      const first = await site.signedIn(testPage, "editor");
      const second = await newPage();
      try {
        const page = await site.signedIn(second, "colleague");
        for (const on of [first, page]) {
          await visit(on, `${site.base}/admin/projects`);
          await chooseChapter(on, "Ordered chapter");
        }
        await page.getByRole("button", { name: "Move Text section 3 up" }).click();
        await toast(page, "Order updated successfully!").waitFor();
        await expect.poll(() => excerpts(page)).toEqual(["Alpha", "Charlie", "Bravo"]);

        const refused = first.waitForResponse((response) => response.request().method() === "POST");
        await dragByKeyboard(first, first.getByRole("button", { name: "Reorder Text section 1" }), "ArrowDown");
        expect((await refused).status()).toBe(409);
        await toast(first, `Failed to update order: ${STALE_LIST}`).waitFor();
        // The page's data came back: the colleague's order, not the refused one.
        await expect.poll(() => excerpts(first)).toEqual(["Alpha", "Charlie", "Bravo"]);
        const reader = await publicPage("/projects/ordered-chapter");
        expect(reader.article.indexOf("Charlie")).toBeLessThan(reader.article.indexOf("Bravo"));
      } finally {
        await second.close();
      }
    });
  });

  it("the action checks every form again, whatever the browser sent", async () => {
    const post = (fields: Record<string, string>) => site.postForm("/admin/projects", fields, "editor");
    const refusals: Array<[Record<string, string>, number, string]> = [
      [{ intent: "create-chapter", title: "   " }, 400, "Failed to create chapter: Chapter title is required"],
      [{ intent: "create-chapter", title: "Bad order", orderIndex: "first" }, 400, "Order must be a whole number"],
      [{ intent: "add-section", type: "text", content: "No chapter" }, 400, "Please select a chapter first"],
      [
        { intent: "add-section", chapterId: "chapter-ordered", type: "text", content: " \n " },
        400,
        "Failed to add section: Section content is required",
      ],
      [
        { intent: "add-section", chapterId: "chapter-ordered", type: "image", content: "javascript:alert(1)" },
        400,
        "Enter an image URL starting with http://, https:// or /",
      ],
      [
        { intent: "move-section", id: "chapter-ordered-0", direction: "up", listRevision: "99" },
        409,
        `Failed to update order: ${STALE_LIST}`,
      ],
      [{ intent: "delete-section", id: "section-that-does-not-exist" }, 404, "This section no longer exists."],
    ];
    for (const [fields, status, message] of refusals) {
      const response = await post(fields);
      expect(response.status, JSON.stringify(fields)).toBe(status);
      expect(await response.text()).toContain(message);
    }
    const titles = await site.database((db) => db.selectFrom("chapters").select("title").execute());
    expect(titles.map((chapter) => chapter.title)).not.toContain("Bad order");
  });
});
