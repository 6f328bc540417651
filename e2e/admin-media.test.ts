import type { Locator, Page } from "playwright-core";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { REFUSED_ADDRESS_MESSAGE } from "../server/media/fetch-image.ts";
import { FILE_TOO_LARGE_MESSAGE, INVALID_FILE_TYPE_MESSAGE, MAX_IMAGE_BYTES } from "../server/media/rules.ts";
import { TEST_DIALECTS } from "../tests/helpers/databases.ts";
import { upload } from "../tests/http/media-client.ts";
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
 * /admin/media and the chapter image section in a real browser, on both databases: a
 * real image uploaded through the control with the spec's progress steps (0, 50, 100,
 * then reset), its toast and its card; files refused by the server (the preview goes
 * back to the previous image) and by the browser (type, 5 MB) with the spec's texts; a
 * failed connection; copying the URL; the alt text edited (from the keyboard too, and
 * refused when stale); deleting an image used nowhere, one used by a chapter (the
 * confirmation names it), and one that came into use after the page was loaded; the
 * import by URL refusing private addresses; the chapter image section picking from the
 * library and uploading in place, with the public chapter showing the image with its
 * srcset; every state and dialog in both looks (light at 1280 px, dark at 390 px).
 */

const ACCOUNTS = {
  editor: { email: "mia@example.com", name: "Mia Media", role: "editor" as const },
  colleague: { email: "cal@example.com", name: "Cal Colleague", role: "editor" as const },
};

const STALE_IMAGE = "This image was changed by someone else since you opened it. Reload to see the latest version.";

/** The chapter the section tests add images to, and the one whose images are deleted while in use. */
const NOTES = { id: "chapter-notes", slug: "field-notes", title: "Field Notes" };
const JOURNAL = { id: "chapter-journal", slug: "lab-journal", title: "Lab Journal" };

/** A real JPEG, wide enough for resized copies (480 and 960 px) and so a srcset. */
function jpeg(colour: { r: number; g: number; b: number }, width = 1200, height = 800): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();
}

function card(page: Page, name: string): Locator {
  return page.getByTestId("media-card").filter({ has: page.getByRole("heading", { name, exact: true }) });
}

/**
 * Records every value the upload's progress bar takes, as it takes it: a MutationObserver
 * notes each bar added, each change of aria-valuenow (its value before the change) and
 * the value a bar had when it went away.
 */
async function recordProgress(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const log: string[] = [];
    Object.assign(window, { progressLog: log });
    const barIn = (node: Node) =>
      node instanceof Element
        ? (node.closest('[role="progressbar"]') ?? node.querySelector('[role="progressbar"]'))
        : null;
    new MutationObserver((records) => {
      for (const record of records) {
        if (record.type === "attributes") log.push(record.oldValue ?? "");
        for (const node of record.addedNodes) if (barIn(node)) log.push("added");
        for (const node of record.removedNodes) {
          const bar = barIn(node);
          if (bar) log.push(`${bar.getAttribute("aria-valuenow")}`, "reset");
        }
      }
    }).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ["aria-valuenow"],
      attributeOldValue: true,
    });
  });
  return async () => {
    const log = await page.evaluate(() => (window as unknown as { progressLog: string[] }).progressLog.splice(0));
    return log.filter((entry) => entry !== "added");
  };
}

describe.each(TEST_DIALECTS)("/admin/media on %s", (dialect) => {
  const site = setUpSignedInSite({
    dialect,
    accounts: ACCOUNTS,
    subnet: "10.0.61",
    seed: async ({ db }) => {
      const now = new Date().toISOString();
      for (const [index, chapter] of [NOTES, JOURNAL].entries()) {
        await db
          .insertInto("chapters")
          .values({
            ...chapter,
            number: index + 1,
            order_index: index,
            published: true,
            created_at: now,
            updated_at: now,
          })
          .execute();
      }
    },
  });

  /** An image stored through the API, as another editor's upload would be. */
  const stored = async (name: string, alt?: string) => {
    const answer = await upload(
      site.base,
      await jpeg({ r: 40, g: 120, b: 200 }),
      name,
      { cookie: site.sessions.colleague },
      alt ? { alt } : {},
    );
    expect(answer.status).toBe(201);
    return answer.json as { id: string; url: string };
  };

  /** An image section of a chapter showing the image, written straight to the database. */
  const showInChapter = (chapterId: string, url: string, id: string) =>
    site.database((db) =>
      db
        .insertInto("chapter_sections")
        .values({ id, chapter_id: chapterId, type: "image", content: url, order_index: 0 })
        .execute(),
    );

  it("the dashboard's Upload media lands here", async () => {
    await withPage({}, async (testPage) => {
      const page = await site.signedIn(testPage, "editor");
      await visit(page, `${site.base}/admin`);
      await page.getByRole("link", { name: /Upload media/ }).click();
      await page.waitForURL(`${site.base}/admin/media`);
      await page.getByRole("heading", { level: 1, name: "Media" }).waitFor();
    });
  });

  describe.each(looksOn(dialect))("in the $theme theme", ({ theme, viewport }) => {
    const name = `sunrise-${theme}.jpg`;

    it("uploads with progress, refuses bad files, copies the URL, edits the alt text and deletes", async () => {
      await withPage({ viewport }, async (testPage) => {
        const page = await site.signedIn(testPage, "editor");
        await chooseTheme(testPage, site.base, theme);
        await testPage.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: site.base });
        expect((await visit(page, `${site.base}/admin/media`))?.status()).toBe(200);
        await checkState(page, theme, "the library");

        const uploads: string[] = [];
        page.on("request", (request) => {
          if (request.method() === "POST" && new URL(request.url()).pathname === "/api/media")
            uploads.push(request.url());
        });
        const steps = await recordProgress(page);
        const input = page.getByLabel("Upload image");
        expect(await input.getAttribute("type")).toBe("file");
        await input.setInputFiles({ name, mimeType: "image/jpeg", buffer: await jpeg({ r: 230, g: 120, b: 40 }) });
        await toast(page, "Image uploaded successfully").waitFor();
        const uploaded = card(page, name);
        await uploaded.waitFor();
        await page.getByTestId("upload-progress").waitFor({ state: "detached" });
        expect(await steps()).toEqual(["0", "50", "100", "reset"]);

        // The card: a thumbnail from the smallest copy (its size set), the details, used nowhere yet.
        const thumbnail = uploaded.getByTestId("media-thumbnail");
        expect(await thumbnail.getAttribute("src")).toMatch(/-480w\.(webp|jpg)$/);
        expect(await thumbnail.getAttribute("width")).toBe("480");
        expect(await thumbnail.getAttribute("height")).toBe("320");
        const [size, dimensions, date, alt, usage] = await uploaded.locator("dd").allTextContents();
        expect(size).toMatch(/^\d+ KB$/);
        expect(dimensions).toBe("1200 × 800");
        const today = { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" } as const;
        expect(date).toBe(new Date().toLocaleDateString("en-US", today));
        expect([alt, usage]).toEqual(["None", "No chapter"]);
        const record = await site.database((db) =>
          db.selectFrom("media").select(["id", "path"]).where("original_name", "=", name).executeTakeFirstOrThrow(),
        );
        const url = `/media/project-images/${record.path}`;
        const preview = page.getByTestId("image-upload").getByTestId("upload-preview");
        expect(await preview.getAttribute("src")).toBe(url);
        await checkState(page, theme, "after an upload");

        // Not an image, though named and declared as one: the server refuses it, the preview goes back.
        await input.setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("just some text") });
        await toast(page, INVALID_FILE_TYPE_MESSAGE).waitFor();
        expect(await textOf(toast(page, INVALID_FILE_TYPE_MESSAGE))).toContain("Upload failed");
        await page.getByTestId("upload-progress").waitFor({ state: "detached" });
        expect(await steps()).toEqual(["0", "50", "100", "reset"]);
        expect(await preview.getAttribute("src")).toBe(url);
        expect(await textOf(page.getByTestId("upload-error"))).toBe(INVALID_FILE_TYPE_MESSAGE);
        expect(await input.getAttribute("aria-invalid")).toBe("true");
        await checkState(page, theme, "a file the server refused");

        // The browser refuses other types and anything over 5 MB before sending.
        const sent = uploads.length;
        await input.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("text") });
        await expect.poll(() => textOf(page.getByTestId("upload-error"))).toBe(INVALID_FILE_TYPE_MESSAGE);
        await input.setInputFiles({
          name: "huge.jpg",
          mimeType: "image/jpeg",
          buffer: Buffer.alloc(MAX_IMAGE_BYTES + 1),
        });
        await toast(page, FILE_TOO_LARGE_MESSAGE).waitFor();
        expect(await textOf(page.getByTestId("upload-error"))).toBe(FILE_TOO_LARGE_MESSAGE);
        expect(uploads.length, "nothing sent").toBe(sent);
        expect(await preview.getAttribute("src")).toBe(url);

        // Copying the URL puts the full address on the clipboard.
        await uploaded.getByRole("button", { name: `Copy URL of ${name}` }).click();
        const copied = toast(page, "Image URL copied to the clipboard");
        await copied.waitFor();
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${site.base}${url}`);
        // The toast may cover the card's buttons, and the pointer left over it by the click
        // holds it open: closed as a visitor would close it.
        await copied.getByRole("button", { name: "Close toast" }).click();
        await copied.waitFor({ state: "hidden" });

        // The alt text, in a dialog.
        await uploaded.getByRole("button", { name: `Edit alt text of ${name}` }).click();
        const dialog = page.getByRole("dialog", { name: "Edit alt text" });
        expect(await dialog.getByLabel("Alt text").inputValue()).toBe("");
        await checkState(page, theme, "the alt text dialog");
        await dialog.getByLabel("Alt text").fill(`  Sunrise over the lab (${theme})  `);
        await dialog.getByRole("button", { name: "Save changes" }).click();
        const updated = toast(page, "Alt text updated successfully!");
        await updated.waitFor();
        // Like the copy's toast, this one can open under the pointer and cover the Delete button.
        await updated.getByRole("button", { name: "Close toast" }).click();
        await updated.waitFor({ state: "hidden" });
        await dialog.waitFor({ state: "hidden" });
        await expect.poll(() => textOf(uploaded.getByTestId("media-alt"))).toBe(`Sunrise over the lab (${theme})`);
        expect(await thumbnail.getAttribute("alt")).toBe(`Sunrise over the lab (${theme})`);

        // Deleting one used nowhere: confirmed, and it cannot be undone.
        await uploaded.getByRole("button", { name: `Delete ${name}` }).click();
        const confirm = page.getByRole("alertdialog", { name: `Delete ${name}?` });
        expect(await textOf(confirm)).toContain("This action cannot be undone.");
        await checkState(page, theme, "the delete confirmation");
        // On a slow browser (here the CPU slowed twentyfold) the revalidated list, without
        // the dialog that sent the delete, may be the only state rendered: the toast must
        // not depend on that dialog.
        const devTools = await page.context().newCDPSession(page);
        await devTools.send("Emulation.setCPUThrottlingRate", { rate: 20 });
        await confirm.getByRole("button", { name: "Delete", exact: true }).click();
        await toast(page, "Image deleted successfully").waitFor({ timeout: 30_000 });
        await devTools.send("Emulation.setCPUThrottlingRate", { rate: 1 });
        await uploaded.waitFor({ state: "detached" });
        expect((await fetch(`${site.base}${url}`)).status).toBe(404);
      });
    });

    it("deleting an image in use names its chapter; one that came into use since is refused, then named", async () => {
      const used = await stored(`diagram-${theme}.jpg`);
      const late = await stored(`late-${theme}.jpg`);
      await showInChapter(JOURNAL.id, used.url, `section-used-${theme}`);
      await withPage({ viewport }, async (testPage) => {
        const page = await site.signedIn(testPage, "editor");
        await chooseTheme(testPage, site.base, theme);
        await visit(page, `${site.base}/admin/media`);

        const usedCard = card(page, `diagram-${theme}.jpg`);
        const chapterLink = usedCard.getByTestId("media-usage").getByRole("link", { name: JOURNAL.title });
        expect(await chapterLink.getAttribute("href")).toBe(`/admin/projects?chapter=${JOURNAL.id}`);
        await usedCard.getByRole("button", { name: `Delete diagram-${theme}.jpg` }).click();
        const confirm = page.getByRole("alertdialog");
        expect(await textOf(confirm)).toContain(`shown in 1 chapter section of “${JOURNAL.title}”`);
        expect(await textOf(confirm)).toContain("This action cannot be undone.");
        await checkState(page, theme, "the confirmation of an image in use");
        await confirm.getByRole("button", { name: "Delete anyway" }).click();
        await toast(page, "Image deleted successfully").waitFor();
        await usedCard.waitFor({ state: "detached" });
        // As the confirmation said: the chapter shows no image there, not a broken one.
        const chapter = await fetch(`${site.base}/projects/${JOURNAL.slug}`);
        expect(chapter.status).toBe(200);
        expect(await chapter.text()).not.toContain(used.url);

        // Used by a chapter while its confirmation is open: refused with the reason, and the
        // open confirmation then names the chapter.
        const lateCard = card(page, `late-${theme}.jpg`);
        expect(await textOf(lateCard.getByTestId("media-usage"))).toBe("No chapter");
        await lateCard.getByRole("button", { name: `Delete late-${theme}.jpg` }).click();
        const lateConfirm = page.getByRole("alertdialog", { name: `Delete late-${theme}.jpg?` });
        expect(await textOf(lateConfirm)).toContain("The image and its resized copies are removed from storage.");
        await showInChapter(JOURNAL.id, late.url, `section-late-${theme}`);
        const answer = page.waitForResponse((response) => response.request().method() === "POST");
        await lateConfirm.getByRole("button", { name: "Delete", exact: true }).click();
        expect((await answer).status()).toBe(409);
        const refused = toast(page, "Delete failed");
        await refused.waitFor();
        expect(await textOf(refused)).toContain(
          "This image is used in 1 chapter section. Confirm to delete it anyway.",
        );
        await expect.poll(() => textOf(lateConfirm)).toContain(`“${JOURNAL.title}”`);
        await lateConfirm.getByRole("button", { name: "Delete anyway" }).click();
        await lateCard.waitFor({ state: "detached" });
        // The first delete's toast may still be showing beside this one.
        await toast(page, "Image deleted successfully").first().waitFor();
      });
    });

    it("the chapter image section picks from the library and uploads in place; the chapter shows both", async () => {
      const picked = await stored(`library-${theme}.jpg`, `Rack of servers (${theme})`);
      await withPage({ viewport }, async (testPage) => {
        const page = await site.signedIn(testPage, "editor");
        await chooseTheme(testPage, site.base, theme);
        await visit(page, `${site.base}/admin/projects?chapter=${NOTES.id}`);

        await page.getByRole("button", { name: "Add Section" }).click();
        const add = page.getByRole("dialog", { name: "Add Section" });
        await choose(page, add.getByRole("combobox", { name: "Section type" }), "Image");
        const image = add.getByRole("group", { name: "Image" });
        await image.getByRole("button", { name: "Choose from library" }).click();
        const picker = page.getByRole("dialog", { name: "Choose from the media library" });
        const choice = picker.getByRole("radio", { name: `Rack of servers (${theme})` });
        await choice.waitFor();
        await checkState(page, theme, "the library picker");
        await choice.click();
        expect(await choice.getAttribute("aria-checked")).toBe("true");
        await picker.getByRole("button", { name: "Use image" }).click();
        await picker.waitFor({ state: "hidden" });
        // The section's image and, as it had none, the library's alt text; the live preview shows it.
        expect(await image.getByTestId("upload-preview").getAttribute("src")).toBe(picked.url);
        expect(await add.getByLabel("Alt text").inputValue()).toBe(`Rack of servers (${theme})`);
        const livePreview = add.getByTestId("section-preview").getByTestId("image-link").locator("img");
        await expect.poll(() => livePreview.getAttribute("src")).toBe(picked.url);
        expect(await livePreview.getAttribute("srcset")).toContain("480w");
        await checkState(page, theme, "the image section editor");
        await add.getByRole("button", { name: "Add Section" }).click();
        await toast(page, "Section added successfully!").waitFor();
        await add.waitFor({ state: "hidden" });

        // A new image uploaded in place, with the same progress steps.
        const steps = await recordProgress(page);
        await page.getByRole("button", { name: "Add Section" }).click();
        await choose(page, add.getByRole("combobox", { name: "Section type" }), "Image");
        await add.getByLabel("Upload new image").setInputFiles({
          name: `in-place-${theme}.png`,
          mimeType: "image/png",
          buffer: await sharp(await jpeg({ r: 90, g: 40, b: 160 }))
            .png()
            .toBuffer(),
        });
        await toast(page, "Image uploaded successfully").waitFor();
        await add.getByTestId("upload-progress").waitFor({ state: "detached" });
        expect(await steps()).toEqual(["0", "50", "100", "reset"]);
        const uploadedUrl = await add.getByTestId("upload-preview").getAttribute("src");
        expect(uploadedUrl).toMatch(/^\/media\/project-images\/.+\.png$/);
        await expect.poll(() => livePreview.getAttribute("src")).toBe(uploadedUrl);
        await add.getByLabel("Caption").fill(`Uploaded in place (${theme})`);
        await add.getByRole("button", { name: "Add Section" }).click();
        await toast(page, "Section added successfully!").first().waitFor();
        await add.waitFor({ state: "hidden" });

        // The public chapter: both images, from our origin, with their srcsets.
        await page.goto(`${site.base}/projects/${NOTES.slug}`);
        for (const src of [picked.url, uploadedUrl]) {
          const img = page.getByTestId("image-figure").locator(`img[src="${src}"]`).first();
          await img.waitFor();
          expect(await img.getAttribute("srcset")).toMatch(/480w/);
          expect(await img.getAttribute("width")).toBe("1200");
        }
        await page.getByText(`Uploaded in place (${theme})`).waitFor();
        // Both are now used by the chapter, as the library shows.
        await visit(page, `${site.base}/admin/media`);
        expect(await textOf(card(page, `library-${theme}.jpg`).getByTestId("media-usage"))).toBe(NOTES.title);
      });
    });
  });

  it("the alt-text dialog from the keyboard alone; Escape closes it and focus returns", async () => {
    await stored("keyboard.jpg");
    await withPage({}, async (testPage) => {
      const page = await site.signedIn(testPage, "editor");
      await visit(page, `${site.base}/admin/media`);
      const edit = card(page, "keyboard.jpg").getByRole("button", { name: "Edit alt text of keyboard.jpg" });
      await expectKeyboardDialog(page, edit);

      await edit.focus();
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog", { name: "Edit alt text" });
      await dialog.waitFor();
      // Focus starts in the alt text; then Cancel, then Save changes.
      await page.keyboard.type("Typed from the keyboard");
      await page.keyboard.press("Tab");
      await page.keyboard.press("Tab");
      await page.keyboard.press("Enter");
      await toast(page, "Alt text updated successfully!").waitFor();
      await dialog.waitFor({ state: "hidden" });
      await expect
        .poll(() => textOf(card(page, "keyboard.jpg").getByTestId("media-alt")))
        .toBe("Typed from the keyboard");
      await expect.poll(() => edit.evaluate((element) => element === document.activeElement)).toBe(true);
    });
  });

  it("the library picker from the keyboard: arrows move the choice, Enter on Use image picks it", async () => {
    await stored("first-choice.jpg", "First choice");
    await stored("second-choice.jpg", "Second choice");
    await withPage({}, async (testPage) => {
      const page = await site.signedIn(testPage, "editor");
      await visit(page, `${site.base}/admin/projects?chapter=${NOTES.id}`);
      await page.getByRole("button", { name: "Add Section" }).click();
      const add = page.getByRole("dialog", { name: "Add Section" });
      await choose(page, add.getByRole("combobox", { name: "Section type" }), "Image");
      const open = add.getByRole("button", { name: "Choose from library" });
      await open.focus();
      await page.keyboard.press("Enter");
      const picker = page.getByRole("dialog", { name: "Choose from the media library" });
      const radios = picker.getByRole("radio");
      await radios.first().waitFor();
      // Newest first: the second stored leads. An arrow moves the focus to the next card and chooses it
      // (Radix moves the focus a moment after the key goes down: the key is held until then, as a hand would).
      await radios.first().focus();
      await page.keyboard.down("ArrowRight");
      const next = picker.getByRole("radio", { name: "First choice" });
      await expect.poll(() => next.getAttribute("aria-checked")).toBe("true");
      await page.keyboard.up("ArrowRight");
      expect(await radios.first().getAttribute("aria-checked")).toBe("false");
      // Tab leaves the group for Cancel, then Use image.
      await page.keyboard.press("Tab");
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Use image");
      await page.keyboard.press("Enter");
      await picker.waitFor({ state: "hidden" });
      expect(await add.getByLabel("Alt text").inputValue()).toBe("First choice");
      await expect.poll(() => open.evaluate((element) => element === document.activeElement)).toBe(true);
    });
  });

  it("refuses a stale alt text (409), keeping what was typed", async () => {
    await stored("contested.jpg");
    await withPage({}, async (testPage) => {
      const first = await site.signedIn(testPage, "editor");
      const second = await newPage();
      try {
        await expectStaleDialogSaveRefused({
          first,
          second: await site.signedIn(second, "colleague"),
          open: async (page) => {
            await visit(page, `${site.base}/admin/media`);
            await card(page, "contested.jpg").getByRole("button", { name: "Edit alt text of contested.jpg" }).click();
            return page.getByRole("dialog", { name: "Edit alt text" });
          },
          label: "Alt text",
          values: { fresh: "Cal's words", stale: "Mia's words" },
          updated: "Alt text updated successfully!",
          message: STALE_IMAGE,
          failure: "Failed to update alt text",
        });
      } finally {
        await second.close();
      }
    });
  });

  it("an upload without an answer, and imports from private addresses, say why they failed", async () => {
    await withPage({}, async (testPage) => {
      const page = await site.signedIn(testPage, "editor");
      await visit(page, `${site.base}/admin/media`);

      // The connection fails (as when the server closes it on an oversized body): the spec's fallback text.
      await page.route("**/api/media", (route) => route.abort("connectionreset"));
      await page
        .getByLabel("Upload image")
        .setInputFiles({ name: "lost.jpg", mimeType: "image/jpeg", buffer: await jpeg({ r: 1, g: 2, b: 3 }, 64, 64) });
      await toast(page, "Failed to upload image").waitFor();
      expect(await textOf(page.getByTestId("upload-error"))).toBe("Failed to upload image");
      await page.unroute("**/api/media");

      // The library's import: the server fetches from public addresses only.
      const importForm = page.getByRole("form", { name: "Import an image by URL" });
      await importForm.getByRole("button", { name: "Import" }).click();
      await importForm.getByText("Please enter an image URL.").waitFor();
      await importForm.getByLabel("Image URL").fill("http://127.0.0.1:9/secret.png");
      await importForm.getByRole("button", { name: "Import" }).click();
      const refused = toast(page, REFUSED_ADDRESS_MESSAGE);
      await refused.waitFor();
      expect(await textOf(refused)).toContain("Upload failed");
      await importForm.getByText(REFUSED_ADDRESS_MESSAGE).first().waitFor();

      // A URL pasted in the chapter image section goes to POST /api/media/import too.
      await visit(page, `${site.base}/admin/projects?chapter=${NOTES.id}`);
      await page.getByRole("button", { name: "Add Section" }).click();
      const add = page.getByRole("dialog", { name: "Add Section" });
      await choose(page, add.getByRole("combobox", { name: "Section type" }), "Image");
      const imported = page.waitForRequest((request) => new URL(request.url()).pathname === "/api/media/import");
      await add.getByLabel("Or paste an image URL").fill("http://10.1.2.3/inside.png");
      await add.getByLabel("Or paste an image URL").press("Enter");
      expect(JSON.parse((await imported).postData() ?? "{}")).toEqual({ url: "http://10.1.2.3/inside.png" });
      await add.getByText(REFUSED_ADDRESS_MESSAGE).waitFor();
      expect(await add.getByTestId("upload-preview").count(), "no image chosen").toBe(0);
    });
  });
});
