import type { Page } from "playwright-core";
import { expect } from "vitest";
import { problemsOf, type Trapped } from "./xss-checks.ts";
import { PAYLOADS } from "./xss-corpus.ts";
import type { SeededChapters } from "./xss-seed.ts";

/**
 * The admin's edit dialogs, one of each kind of item: a dialog renders the stored values
 * into its inputs (and its title), where a payload must stay a value.
 */

export interface DialogCase {
  /** The button that opens the dialog: the first visible one. */
  opener: string;
  /** Whether a field of the dialog holds a payload (the role dialog has none of its own). */
  holdsPayload: boolean;
}

const EDIT: DialogCase = { opener: 'main button[aria-label^="Edit "]:visible', holdsPayload: true };
const EDIT_CHAPTER: DialogCase = { opener: '[data-testid="edit-chapter"]:visible', holdsPayload: true };
const EDIT_SECTION: DialogCase = {
  opener: '[data-testid="section-row"] button[aria-label^="Edit "]:visible',
  holdsPayload: true,
};
const CHANGE_ROLE: DialogCase = { opener: '[data-testid="change-role"]:visible', holdsPayload: false };

/** The dialogs to open on each admin page (by address). */
export function dialogCases(chapters: SeededChapters): Map<string, DialogCase[]> {
  const projects = (id: string) => `/admin/projects?chapter=${id}`;
  return new Map([
    ["/admin/tips", [EDIT]],
    ["/admin/resources", [EDIT]],
    [projects(chapters.byType.text.id), [EDIT_CHAPTER, EDIT_SECTION]],
    [projects(chapters.byType.code.id), [EDIT_SECTION]],
    [projects(chapters.byType.image.id), [EDIT_SECTION]],
    ["/admin/about?tab=certifications", [EDIT]],
    ["/admin/about?tab=skills", [EDIT]],
    ["/admin/about?tab=timeline", [EDIT]],
    ["/admin/media", [EDIT]],
    ["/admin/users", [CHANGE_ROLE]],
  ]);
}

/**
 * Opens the dialog on the page as it is (from the keyboard: long payload names crowd
 * the pointer's targets), checks it, and closes it.
 */
export async function checkEditDialog(page: Page, trapped: Trapped, { opener, holdsPayload }: DialogCase) {
  const trigger = page.locator(opener).first();
  await trigger.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog");
  await dialog.waitFor();
  if (holdsPayload) {
    const values = () =>
      dialog
        .locator("input, textarea")
        .evaluateAll((fields) => fields.map((field) => (field as HTMLInputElement).value));
    await expect
      .poll(
        async () => {
          const shown = await values();
          // A field holds one payload, or several (the media's alt texts).
          return PAYLOADS.filter((payload) => shown.some((value) => value.includes(payload.text.trim()))).length;
        },
        { message: `${page.url()}: a payload in the fields of the dialog`, timeout: 5000 },
      )
      .toBeGreaterThan(0);
  }
  const problems = await problemsOf(page, trapped);
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden" });
  // Radix gives the focus back to the trigger a timer's turn after the dialog is gone.
  // The next dialog must not open before that: the late focus would land outside it,
  // open that trigger's tooltip above it, and the tooltip would take the next Escape.
  await expect
    .poll(() => trigger.evaluate((element) => element === document.activeElement), {
      message: `${page.url()}: focus back on the dialog's trigger`,
    })
    .toBe(true);
  return problems;
}
