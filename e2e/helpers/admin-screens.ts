import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";
import { TEST_DIALECTS, type TestDialect } from "../../tests/helpers/databases.ts";
import { DESKTOP_VIEWPORT, expectNoAxeViolations, MOBILE_VIEWPORT, type TestPage, textOf } from "./browser.ts";

/**
 * Checks shared by the browser tests of the admin screens: every screen state is
 * looked at in both themes and at phone width (no sideways scrolling), with axe, and
 * one dialog of each screen is used from the keyboard.
 */

export type Theme = "light" | "dark";

/** The two looks each screen is checked in: the light theme on a desktop, the dark theme on a phone. */
export const LOOKS = [
  { theme: "light", viewport: DESKTOP_VIEWPORT },
  { theme: "dark", viewport: MOBILE_VIEWPORT },
] as const satisfies ReadonlyArray<{ theme: Theme; viewport: { width: number; height: number } }>;

/**
 * The looks a screen's flows run in on one database. A look is presentation (theme,
 * width, axe) and a database is storage, and neither depends on the other: with both
 * databases, the light look runs on SQLite and the dark look on PostgreSQL, so every
 * flow still runs on both databases and in both looks, at half the cost of every pair.
 * With SQLite alone, both looks run on it.
 */
export function looksOn(dialect: TestDialect): ReadonlyArray<(typeof LOOKS)[number]> {
  if (TEST_DIALECTS.length === 1) return LOOKS;
  return dialect === "sqlite" ? [LOOKS[0]] : [LOOKS[1]];
}

/** Sets the theme cookie the server paints the page with (the admin header's theme menu sets the same one). */
export async function chooseTheme(testPage: TestPage, base: string, theme: Theme): Promise<void> {
  await testPage.context.addCookies([{ name: "theme", value: theme, url: base }]);
}

/** Waits for running animations (toasts sliding in, a replaced toast) to end, so that axe sees final colours. */
export async function settled(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))),
  );
}

/** The page does not scroll sideways: nothing is wider than the window. */
export async function expectNoSideScroll(page: Page, state: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${state}: the page's width at a ${innerWidth} px wide window`).toBeLessThanOrEqual(innerWidth);
}

/** One state of a screen: painted in the chosen theme, no sideways scrolling, no axe violation. */
export async function checkState(page: Page, theme: Theme, state: string): Promise<void> {
  await settled(page);
  expect(await page.evaluate(() => document.documentElement.dataset.theme), `${state}: theme`).toBe(theme);
  await expectNoSideScroll(page, state);
  await expectNoAxeViolations(page);
}

/**
 * A dialog used from the keyboard: Enter on its trigger opens it with focus inside,
 * Tab keeps moving through it without leaving it, Escape closes it and focus goes back
 * to the trigger. Returns the names of the controls Tab went through.
 */
export async function expectKeyboardDialog(
  page: Page,
  trigger: Locator,
  role: "dialog" | "alertdialog" = "dialog",
): Promise<string[]> {
  await trigger.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole(role);
  await dialog.waitFor();
  const visited: string[] = [];
  const stops = await dialog.evaluate(
    (element) => element.querySelectorAll("button:not([disabled]), input:not([type=hidden]), textarea, a[href]").length,
  );
  for (let step = 0; step <= stops; step++) {
    const focused = await dialog.evaluate((element) => {
      const active = document.activeElement as HTMLElement | null;
      if (!active || !element.contains(active)) return null;
      return (
        active.getAttribute("aria-label") || active.textContent?.trim() || active.getAttribute("name") || active.id
      );
    });
    expect(focused, `focus after ${step} Tab presses stays in the ${role}`).not.toBeNull();
    visited.push(focused as string);
    await page.keyboard.press("Tab");
  }
  expect(new Set(visited).size, "Tab moves between the dialog's controls").toBeGreaterThan(1);
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden" });
  // Radix gives the focus back as the dialog unmounts, a moment after it is hidden.
  await expect
    .poll(() => trigger.evaluate((element) => element === document.activeElement), {
      message: "focus back on the trigger",
    })
    .toBe(true);
  return visited;
}

/** The toast with this text (sonner's), once shown. */
export function toast(page: Page, text: string): Locator {
  return page.locator("[data-sonner-toast]").filter({ hasText: text });
}

/** Picks an option of a Radix select (a combobox button and a listbox). */
export async function choose(page: Page, select: Locator, option: string): Promise<void> {
  await select.click();
  await page.getByRole("option", { name: option, exact: true }).click();
  await page.getByRole("listbox").waitFor({ state: "hidden" });
}

/**
 * A save from a form opened before someone else's change: `typed` goes into `field`,
 * `save` is clicked, and the answer is a 409 whose message stands above the form and in
 * the toast "{failure}: {message}", while the field keeps what was typed.
 */
export async function expectStaleSaveRefused(
  page: Page,
  { form, field, typed, save, message, failure }: StaleSave,
): Promise<void> {
  await field.fill(typed);
  const answer = page.waitForResponse((response) => response.request().method() === "POST");
  await save.click();
  expect((await answer).status()).toBe(409);
  expect(await textOf(form.getByTestId("form-errors"))).toBe(message);
  await toast(page, `${failure}: ${message}`).waitFor();
  expect(await field.inputValue()).toBe(typed);
}

export interface StaleSave {
  /** The form (or the dialog holding it). */
  form: Locator;
  field: Locator;
  typed: string;
  save: Locator;
  /** The 409's message. */
  message: string;
  /** The start of the failure toast: "Failed to update chapter". */
  failure: string;
}

/**
 * Two people edit one item: each opens its edit dialog (`open`), the second saves
 * `values.fresh` into the field labelled `label` first (toast `updated`), and the
 * first one's save of `values.stale` is then refused as stale (expectStaleSaveRefused).
 */
export async function expectStaleDialogSaveRefused({
  first,
  second,
  open,
  label,
  values,
  updated,
  message,
  failure,
}: {
  first: Page;
  second: Page;
  open(page: Page): Promise<Locator>;
  label: string;
  values: { fresh: string; stale: string };
  updated: string;
  message: string;
  failure: string;
}): Promise<void> {
  const stale = await open(first);
  const fresh = await open(second);
  await fresh.getByLabel(label).fill(values.fresh);
  await fresh.getByRole("button", { name: "Save changes" }).click();
  await toast(second, updated).waitFor();
  await expectStaleSaveRefused(first, {
    form: stale,
    field: stale.getByLabel(label),
    typed: values.stale,
    save: stale.getByRole("button", { name: "Save changes" }),
    message,
    failure,
  });
}
