/**
 * The public page of each kind of item (chapters: /projects/<slug>): where the feed,
 * the sitemap and the newsletter's notifications link to.
 */
export const publishedPaths = {
  chapter: (slug: string) => `/projects/${encodeURIComponent(slug)}`,
  tip: () => "/blog",
  resource: () => "/resources",
} as const;
