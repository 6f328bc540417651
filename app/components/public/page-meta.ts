import type { MetaDescriptor } from "react-router";
import { pageTitle, SITE_NAME } from "~/lib/meta";

export interface PublicPageMetaInput {
  /** The page's own title; the site name is appended (the home page passes none). */
  title?: string;
  description: string;
  /** config.publicOrigin, from the loader. */
  origin: string;
  /** The canonical path, e.g. /projects/intro. */
  path: string;
  type?: "website" | "article" | "profile";
}

/**
 * <title>, description, canonical link, Open Graph / Twitter tags of a public page, and
 * the link to the Atom feed by which a feed reader given any page's address finds it.
 */
export function publicPageMeta({
  title,
  description,
  origin,
  path,
  type = "website",
}: PublicPageMetaInput): MetaDescriptor[] {
  const fullTitle = title ? pageTitle(title) : SITE_NAME;
  const url = `${origin}${path}`;
  return [
    { title: fullTitle },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { tagName: "link", rel: "alternate", type: "application/atom+xml", title: SITE_NAME, href: `${origin}/feed.xml` },
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:title", content: title ?? SITE_NAME },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:type", content: type },
    { name: "twitter:card", content: "summary" },
  ];
}
