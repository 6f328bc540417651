import type { MetaDescriptor } from "react-router";
import { SITE_NAME } from "../../server/site.ts";
import { errorPageTitle } from "./errors";

// The name lives on the server side (emails use it too); pages import it from here.
export { SITE_NAME };

export const SITE_DESCRIPTION =
  "Bastion is the portfolio and learning site of a security professional: projects and courses, practical tips, curated resources and a newsletter.";

/** "Tips & Tricks · Bastion"; the site name always comes last so tabs stay distinguishable. */
export function pageTitle(...parts: string[]): string {
  return [...parts, SITE_NAME].join(" · ");
}

/** Admin screens share their names with public ones, so their titles say "Admin" and ask not to be indexed. */
export function adminPageMeta(title: string): MetaDescriptor[] {
  return [{ title: pageTitle(title, "Admin") }, { name: "robots", content: "noindex" }];
}

/**
 * Meta of the root and layout routes: the site's own title and description, or, when
 * their ErrorBoundary is showing, the error's title (the matches below are not rendered
 * then, so nothing else speaks for the page).
 */
export function siteMeta(error: unknown): MetaDescriptor[] {
  return error ? errorPageMeta(error) : [{ title: SITE_NAME }, { name: "description", content: SITE_DESCRIPTION }];
}

/** Meta of a route whose ErrorBoundary is showing: the matches below it are not rendered, so it speaks for the page. */
export function errorPageMeta(error: unknown): MetaDescriptor[] {
  return [{ title: pageTitle(errorPageTitle(error)) }, { name: "robots", content: "noindex" }];
}
