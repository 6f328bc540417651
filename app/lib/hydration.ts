/**
 * Which pages React hydrates. The public content pages (home, the reader, tips,
 * resources, about) are complete in their server HTML and are sent without React's
 * client scripts: no framework JavaScript competes with their first paint, and
 * their few behaviours come from one small script (app/enhancements/public-page.js).
 * See docs/decisions/009-public-pages-without-hydration.md.
 *
 * A route says so in its handle; the deepest route that says anything decides, so
 * a page under a layout that is not hydrated can still ask for hydration.
 */

export interface HydrationHandle {
  hydrate?: boolean;
}

export function hydratesPage(matches: ReadonlyArray<{ handle?: unknown }>): boolean {
  for (let index = matches.length - 1; index >= 0; index--) {
    const handle = matches[index]?.handle as HydrationHandle | undefined;
    if (typeof handle?.hydrate === "boolean") return handle.hydrate;
  }
  return true;
}
