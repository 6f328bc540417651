import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChapterRecord } from "../server/content/chapters.ts";
import { addSessionCookies, type SiteWithAccounts, signIn, startSiteWithAccounts } from "../tests/helpers/accounts.ts";
import { closeBrowser, launchBrowser, newPage, withPage } from "./helpers/browser.ts";
import { visit } from "./helpers/hydration.ts";
import { installTrap, problemsOf, scanPage, type Trapped } from "./helpers/xss-checks.ts";
import { fitting, PAYLOADS, type Payload, packed, URL_PAYLOADS } from "./helpers/xss-corpus.ts";
import { checkEditDialog, dialogCases } from "./helpers/xss-dialogs.ts";
import {
  checkEmails,
  checkFeed,
  missingPayloads,
  NAME_PAYLOADS,
  NAME_ROUNDS,
  PAYLOAD_USERS,
  payloadsIn,
  renamePayloadUsers,
  uploadPayloadImages,
} from "./helpers/xss-pages.ts";
import { publicResource, type SeededChapters, seedPayloads, systemStore, tryBadSchemes } from "./helpers/xss-seed.ts";

/**
 * Stored XSS: a corpus of payloads (e2e/helpers/xss-corpus.ts), each calling a trap if it
 * ever runs, saved through the content services into every text field an editor can
 * write, user names and media alt texts; every public page, a draft's preview, the feed, every admin page
 * (and an edit dialog of each kind of item) and the newsletter email are then opened in
 * a real browser with JavaScript on. Nothing may call the trap, open a dialog, break the
 * Content-Security-Policy, or leave markup of a payload in the DOM; the payloads must
 * show as text. Every URL field refuses each non-http(s) link.
 */

const ADMIN = { email: "ada@example.com", name: "Ada Admin", role: "admin" as const };

let site: SiteWithAccounts;
let base: string;
let session: string;
let chapters: SeededChapters;

beforeAll(async () => {
  [site] = await Promise.all([
    startSiteWithAccounts({
      dialect: "sqlite",
      accounts: [ADMIN, ...PAYLOAD_USERS],
      seed: async (database) => {
        chapters = await seedPayloads(database.db);
      },
    }),
    launchBrowser(),
  ]);
  base = site.server.url;

  session = await signIn(base, ADMIN.email);
  await uploadPayloadImages(base, session);
}, 120_000);

afterAll(async () => {
  await closeBrowser();
  await site?.stop();
});

/** A page to open, and the payloads it must show as text. */
interface Stop {
  address: string;
  shows?: readonly Payload[];
}

/**
 * Opens each page in turn on one browser page; collects what went wrong on each, after
 * opening its edit dialogs when it has some.
 */
async function sweep(page: Page, trapped: Trapped, stops: Stop[], options: { admin: boolean }): Promise<string[]> {
  const problems: string[] = [];
  const dialogs = dialogCases(chapters);
  for (const { address, shows } of stops) {
    const url = `${base}${address}`;
    const response = options.admin ? await visit(page, url) : await page.goto(url, { waitUntil: "load" });
    expect(response?.status(), address).toBe(200);
    problems.push(...(await problemsOf(page, trapped)));
    if (shows) expect(await missingPayloads(page, shows), `payloads not shown as text on ${address}`).toEqual([]);
    for (const dialog of dialogs.get(address) ?? []) problems.push(...(await checkEditDialog(page, trapped, dialog)));
  }
  return problems;
}

const chapterPath = (chapter: ChapterRecord) => `/projects/${chapter.slug}`;
const sectionChapters = () => [...new Set(Object.values(chapters.byType))];

describe("stored XSS", () => {
  it("the checks catch the payloads when they are not escaped", async () => {
    // A page of its own with the payloads pasted in as HTML (no CSP): the trap and the
    // scan must see them, or their silence on the site's pages would mean nothing.
    const { page, close } = await newPage();
    try {
      const trapped = await installTrap(page);
      const raw = PAYLOADS.map((payload) => `<div>${payload.text}</div>`).join("\n");
      await page.route("https://raw.example/", (route) => route.fulfill({ contentType: "text/html", body: raw }));
      await page.goto("https://raw.example/", { waitUntil: "load" });
      await expect.poll(async () => (await trapped.fired()).length).toBeGreaterThan(5);
      const traces = (await scanPage(page)).join("\n");
      for (const trace of ["event handler", "srcdoc", "script holding the trap", "href of scheme javascript:"]) {
        expect(traces).toContain(trace);
      }
    } finally {
      await close();
    }
  });

  it("seeds every payload, each chapter title, home and about field holding them all", () => {
    expect(PAYLOADS.length).toBeGreaterThanOrEqual(100);
    expect(URL_PAYLOADS.length).toBeGreaterThanOrEqual(20);
    // Home has three long texts and About five: every payload must fit in them.
    expect(packed(5000).length).toBeLessThanOrEqual(3);
    expect(chapters.all.length).toBe(packed(200, " ").length);
  });

  it("every URL field refuses each javascript:, data:, vbscript: or other non-http(s) link", async () => {
    const database = await site.openDatabase();
    try {
      const { tried, accepted } = await tryBadSchemes(systemStore(database.db), chapters.byType.image.id);
      expect(tried).toBe(URL_PAYLOADS.length * 7);
      expect(accepted).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it("the public pages show the payloads as text and run none of them", { timeout: 120_000 }, async () => {
    await withPage({}, async ({ page }) => {
      const trapped = await installTrap(page);
      const withSections = new Set(sectionChapters());
      const stops: Stop[] = [
        { address: "/", shows: PAYLOADS },
        // Every chapter's title is in the list, each chapter's sections on its page.
        { address: "/projects", shows: fitting(200) },
        ...chapters.all.map((chapter) => ({
          address: chapterPath(chapter),
          shows: withSections.has(chapter) ? PAYLOADS : undefined,
        })),
        { address: "/blog", shows: PAYLOADS },
        // The public list leaves out the Services category, shown in the admin only.
        { address: "/resources", shows: PAYLOADS.filter((payload) => publicResource(payload.index)) },
        { address: "/about", shows: PAYLOADS },
      ];
      expect(await sweep(page, trapped, stops, { admin: false })).toEqual([]);
    });
  });

  it("a draft's preview shows the payloads as text and runs none of them", async () => {
    await withPage({}, async ({ page, context }) => {
      await addSessionCookies(context, session, base);
      const trapped = await installTrap(page);
      const database = await site.openDatabase();
      const drafts = sectionChapters();
      const ids = drafts.map((chapter) => chapter.id);
      try {
        // Drafts as an editor leaves them (the preview reads the database, not the published cache).
        await database.db.updateTable("chapters").set({ published: false }).where("id", "in", ids).execute();
        const stops = drafts.map((chapter) => ({
          address: `${chapterPath(chapter)}?preview`,
          shows: PAYLOADS,
        }));
        // A public page, not hydrated (decision 009), though only editors may open it.
        expect(await sweep(page, trapped, stops, { admin: false })).toEqual([]);
      } finally {
        await database.db.updateTable("chapters").set({ published: true }).where("id", "in", ids).execute();
        await database.close();
      }
    });
  });

  it("the feed escapes every title and summary", async () => {
    await withPage({}, async ({ page }) => {
      const trapped = await installTrap(page);
      await checkFeed(page, base);
      expect(await problemsOf(page, trapped)).toEqual([]);
    });
  });

  it("the admin pages and an edit dialog of each kind of item keep the payloads text", {
    timeout: 150_000,
  }, async () => {
    await withPage({}, async ({ page, context }) => {
      await addSessionCookies(context, session, base);
      const trapped = await installTrap(page);
      const projects = sectionChapters().map((chapter) => ({
        address: `/admin/projects?chapter=${chapter.id}`,
        shows: PAYLOADS,
      }));
      const tabs = ["certifications", "skills", "timeline"].map((tab) => ({
        address: `/admin/about?tab=${tab}`,
        shows: PAYLOADS,
      }));
      // Each list shows its items' payloads as text; the other pages hold them in forms.
      const stops: Stop[] = [
        ...[
          "/admin/home",
          "/admin/about",
          "/admin/settings",
          "/admin/media",
          "/admin",
          "/admin/newsletter?tab=emails",
        ].map((address) => ({ address })),
        { address: "/admin/tips", shows: PAYLOADS },
        { address: "/admin/resources", shows: PAYLOADS },
        ...tabs,
        ...projects,
        { address: "/admin/users", shows: NAME_PAYLOADS },
      ];
      expect(await sweep(page, trapped, stops, { admin: true })).toEqual([]);
    });
  });

  it("every payload in a user name stays text on the Users page", async () => {
    expect(payloadsIn(NAME_ROUNDS.flat())).toHaveLength(PAYLOADS.length);
    await withPage({}, async ({ page, context }) => {
      await addSessionCookies(context, session, base);
      const trapped = await installTrap(page);
      const database = await site.openDatabase();
      try {
        // The first round is what the accounts were created with (the admin sweep's).
        for (const names of NAME_ROUNDS.slice(1)) {
          await renamePayloadUsers(database.db, names);
          const stop = { address: "/admin/users", shows: payloadsIn(names) };
          expect(await sweep(page, trapped, [stop], { admin: true })).toEqual([]);
        }
      } finally {
        await renamePayloadUsers(database.db, NAME_ROUNDS[0] ?? []);
        await database.close();
      }
    });
  });

  it("the newsletter email escapes titles and summaries and links nothing but http(s)", async () => {
    await withPage({}, async ({ page }) => {
      const trapped = await installTrap(page);
      const database = await site.openDatabase();
      try {
        await checkEmails(page, trapped, database.db);
      } finally {
        await database.close();
      }
    });
  });
});
