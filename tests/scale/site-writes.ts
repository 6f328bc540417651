import type { Kysely } from "kysely";
import { getAboutContentForEditor } from "../../server/content/about.ts";
import { getHomeContentForEditor } from "../../server/content/home.ts";
import { getSiteSettingsForEditor } from "../../server/content/site-settings.ts";
import type { Database } from "../../server/db/schema.ts";

/**
 * Writes of each kind that a public page shows, as the admin screens post them (their
 * form intents), each with the page that shows it: an item (a tip), a keyed entry of
 * home content, of about content and of the site settings (admins only).
 */

export interface SiteWrite {
  what: string;
  /** The admin screen whose action makes the write. */
  screen: string;
  role: "editor" | "admin";
  /** The public page that shows it. */
  page: string;
  /** A value no page shows yet (the page must show it as is, nothing to escape). */
  value(): string;
  fields(value: string, db: Kysely<Database>): Promise<Record<string, string>>;
}

type Entries = Record<string, { value: string; revision: number; link?: string | null }>;

/**
 * A keyed editor's form as its page posts it: every entry at the revision it was read
 * at, `key` set to `value`. A switch (`switches`) is "on" or absent.
 */
function entryForm(entries: Entries, key: string, value: string, switches: string[] = []): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, entry] of Object.entries(entries)) {
    const text = name === key ? value : entry.value;
    fields[`${name}.revision`] = String(entry.revision);
    if (switches.includes(name)) {
      if (text === "true") fields[`${name}.value`] = "on";
    } else fields[`${name}.value`] = text;
    if (typeof entry.link === "string") fields[`${name}.link`] = entry.link;
  }
  return fields;
}

const unique = (prefix: string) => `${prefix} ${Date.now()}${Math.floor(Math.random() * 1000)}`;

export const SITE_WRITES: SiteWrite[] = [
  {
    what: "a new tip",
    screen: "/admin/tips",
    role: "editor",
    page: "/blog",
    value: () => unique("Cluster tip"),
    fields: async (value) => ({ intent: "create-tip", title: value, category: "AWS" }),
  },
  {
    what: "the home page's headline",
    screen: "/admin/home",
    role: "editor",
    page: "/",
    value: () => unique("Cluster headline"),
    fields: async (value, db) => ({
      intent: "save-home-page",
      ...entryForm(await getHomeContentForEditor(db), "hero_headline", value, ["newsletter_section_visible"]),
    }),
  },
  {
    what: "the about page's name",
    screen: "/admin/about",
    role: "editor",
    page: "/about",
    value: () => unique("Cluster Name"),
    fields: async (value, db) => ({
      intent: "save-about-content",
      ...entryForm(await getAboutContentForEditor(db), "about_name", value),
    }),
  },
  {
    what: "the LinkedIn link of the site settings",
    screen: "/admin/settings",
    role: "admin",
    page: "/about",
    value: () => `https://www.linkedin.com/in/cluster-${Date.now()}`,
    fields: async (value, db) => ({
      intent: "save-site-settings",
      ...entryForm(await getSiteSettingsForEditor(db), "linkedin_url", value),
    }),
  },
];
