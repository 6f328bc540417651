import type { Page } from "playwright-core";

/**
 * Waits until React has hydrated the admin page just loaded. Hydration runs as a
 * transition after the load event, and a click that lands before React listens does
 * nothing (a dialog trigger stays shut); once the page's heading carries React's
 * props, later clicks reach their handlers or are replayed by React.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const heading = document.querySelector("h1");
    return heading !== null && Object.keys(heading).some((key) => key.startsWith("__reactProps$"));
  });
}

/** Opens an admin page and waits until it answers clicks; returns the page load's response. */
export async function visit(page: Page, url: string) {
  const response = await page.goto(url);
  await waitForHydration(page);
  return response;
}
