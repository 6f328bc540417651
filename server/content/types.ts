import type {
  CERTIFICATION_STATUSES,
  RESOURCE_CATEGORIES,
  SECTION_TYPES,
  TIMELINE_CATEGORIES,
  TIP_CATEGORIES,
  TIP_TYPES,
} from "../db/schema.ts";

/**
 * What the public pages read: published content only, as plain data. Served from an
 * in-process snapshot that every content write invalidates (server/content/cache.ts).
 */

export interface HomeButton {
  text: string;
  /** Same-origin path or http(s) URL from metadata.link; defaults /projects and /blog. */
  link: string;
}

export interface HomeContent {
  headline: string | null;
  tagline: string | null;
  description: string | null;
  /** Null when the entry is invisible (is_visible = false). */
  primaryButton: HomeButton | null;
  secondaryButton: HomeButton | null;
  newsletterVisible: boolean;
}

export interface ChapterSummary {
  id: string;
  slug: string;
  title: string;
  number: number;
}

export interface ChapterSection {
  id: string;
  type: (typeof SECTION_TYPES)[number];
  content: string;
  caption: string | null;
  language: string | null;
  /** Image sections: the image's text alternative, when the editor gave one. */
  alt: string | null;
}

export interface ChapterPage {
  chapter: ChapterSummary & { updatedAt: string; publishedAt: string | null };
  sections: ChapterSection[];
  previous: ChapterSummary | null;
  next: ChapterSummary | null;
}

/** A published chapter, a redirect from one of its former slugs, or nothing. */
export type ChapterLookup =
  | { kind: "chapter"; page: ChapterPage }
  | { kind: "redirect"; slug: string }
  | { kind: "missing" };

export interface TipCard {
  id: string;
  title: string;
  description: string;
  url: string | null;
  type: (typeof TIP_TYPES)[number];
  createdAt: string;
}

export interface TipCategoryBlock {
  category: (typeof TIP_CATEGORIES)[number];
  tips: TipCard[];
}

export interface ResourceCard {
  id: string;
  name: string;
  description: string;
  url: string;
  category: (typeof RESOURCE_CATEGORIES)[number];
  featured: boolean;
  createdAt: string;
}

/** The categories of the public More Resources section, in display order; Services is listed in the admin only. */
export const PUBLIC_RESOURCE_CATEGORIES = ["Learning", "Tools", "News", "Certifications"] as const;

export interface ResourcesPage {
  /** Every featured resource, whatever its category. */
  featured: ResourceCard[];
  /** The public categories that have resources, in display order. */
  categories: Array<{ category: (typeof PUBLIC_RESOURCE_CATEGORIES)[number]; resources: ResourceCard[] }>;
}

export interface AboutPage {
  name: string;
  title: string;
  bio: [string, string, string];
  mission: string;
  certifications: Array<{
    id: string;
    name: string;
    organization: string;
    description: string;
    date: string;
    status: (typeof CERTIFICATION_STATUSES)[number];
  }>;
  skills: Array<{ id: string; name: string; level: number; category: string | null }>;
  /** Milestones in the order the editor gave them. */
  timeline: Array<{
    id: string;
    date: string;
    title: string;
    description: string;
    category: (typeof TIMELINE_CATEGORIES)[number];
  }>;
  linkedinUrl: string | null;
  resumeUrl: string | null;
}

export interface PublishedContent {
  home(): Promise<HomeContent>;
  /** Published chapters by order_index. */
  chapters(): Promise<ChapterSummary[]>;
  chapter(slug: string): Promise<ChapterLookup>;
  /** The four blocks in the order Tenable, AWS, Security Tips, Career (empty ones included). */
  tips(): Promise<TipCategoryBlock[]>;
  resources(): Promise<ResourcesPage>;
  about(): Promise<AboutPage>;
  /** Changes whenever published content may have changed; keys the rendered-page cache. */
  version(): number;
}
