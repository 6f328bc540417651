import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../server/db/schema.ts";
import { prepareDatabase } from "../server/db/setup.ts";
import { createLogger } from "../server/logger.ts";
import { type RunningServer, startServer } from "../tests/helpers/server.ts";
import { expectNoSideScroll } from "./helpers/admin-screens.ts";
import {
  closeBrowser,
  DESKTOP_VIEWPORT,
  expectNoAxeViolations,
  launchBrowser,
  MOBILE_VIEWPORT,
  textOf,
  waitForPageScript,
  withPage,
} from "./helpers/browser.ts";

/**
 * The public screens in a real browser, with JavaScript on and off: home,
 * the chapter reader, tips, resources, about, the theme toggle, and axe in both themes.
 * Content is written into the database before each server starts (the published-content
 * cache is then filled from it); a second server with no chapters shows Coming Soon.
 */

const LINKEDIN_URL = "https://www.linkedin.com/in/bastion-e2e";
const RESUME_URL = "https://example.com/resume.pdf";
const IMAGE_SRC = "/e2e-diagram.png";
const PIXEL_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNk+A8AAQUBAScY42YAAAAASUVORK5CYII=",
  "base64",
);

const CHAPTERS = [
  { id: "chapter-1", slug: "getting-started", title: "Getting Started", number: 1 },
  { id: "chapter-2", slug: "scanning-basics", title: "Scanning Basics", number: 2 },
  { id: "chapter-3", slug: "cloud-hardening", title: "Cloud Hardening", number: 3 },
];
const DRAFT = { id: "chapter-9", slug: "secret-draft", title: "Secret Draft", number: 4 };
const FORMER_SLUG = "scanning-101";
/** Editors paste links like this one: it must break, not widen the page. */
const LONG_URL = `https://example.com/download?token=${"A1b2C3d4".repeat(25)}`;

let server: RunningServer;
let emptyServer: RunningServer;
const dataDirs: string[] = [];

async function seed(fill: (db: Kysely<Database>) => Promise<void>): Promise<string> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bastion-e2e-public-"));
  dataDirs.push(dataDir);
  const database = await prepareDatabase(
    { kind: "sqlite", file: path.join(dataDir, "bastion.sqlite") },
    createLogger({ level: "silent" }),
  );
  try {
    await fill(database.db);
  } finally {
    await database.close();
  }
  return dataDir;
}

async function fillContent(db: Kysely<Database>) {
  const now = new Date().toISOString();
  await db
    .updateTable("home_page_content")
    .set({ content_value: "Defend like an attacker thinks" })
    .where("section_key", "=", "hero_headline")
    .execute();
  await db
    .updateTable("home_page_content")
    .set({
      content_value: "Start the course",
      metadata: JSON.stringify({ link: "/projects/getting-started" }) as never,
    })
    .where("section_key", "=", "button_primary_text")
    .execute();
  // An invisible entry is not shown.
  await db
    .updateTable("home_page_content")
    .set({ is_visible: false })
    .where("section_key", "=", "button_secondary_text")
    .execute();

  await db
    .insertInto("chapters")
    .values(
      [...CHAPTERS, DRAFT].map((chapter, index) => ({
        ...chapter,
        order_index: index,
        published: chapter !== DRAFT,
        published_at: chapter !== DRAFT ? now : null,
      })),
    )
    .execute();
  await db.insertInto("chapter_slug_redirects").values({ slug: FORMER_SLUG, chapter_id: "chapter-2" }).execute();
  const sections: Array<{
    type: Database["chapter_sections"]["type"];
    content: string;
    caption?: string;
    language?: string;
  }> = [
    { type: "heading", content: "Why scanning matters" },
    { type: "text", content: "First paragraph about <b>scanning</b>.\n\nSecond paragraph." },
    { type: "tip", content: "Always scan with credentials." },
    { type: "list", content: "Inventory assets\nScan weekly\n\nPatch criticals first" },
    { type: "code", content: "const answer: number = 42;", language: "typescript", caption: "A typed constant" },
    { type: "code", content: "plain <text> here", language: "no-such-language" },
    { type: "image", content: IMAGE_SRC, caption: "Network diagram" },
  ];
  await db
    .insertInto("chapter_sections")
    .values([
      ...sections.map((section, index) => ({
        id: `section-${index}`,
        chapter_id: "chapter-1",
        type: section.type,
        content: section.content,
        caption: section.caption ?? null,
        language: section.language ?? null,
        order_index: index,
      })),
      ...[
        ["chapter-2", "Scanning text."],
        ["chapter-3", `Cloud text. ${LONG_URL}`],
        [DRAFT.id, "Draft text."],
      ].map(([chapterId = "", content = ""]) => ({
        id: `section-${chapterId}`,
        chapter_id: chapterId,
        type: "text" as const,
        content,
        caption: null,
        language: null,
        order_index: 0,
      })),
    ])
    .execute();

  // Every row names every column: SQLite fills a column missing from one row of a multi-row insert with NULL.
  const tip = (row: {
    id: string;
    category: Database["tips_resources"]["category"];
    title: string;
    url: string | null;
    order_index: number;
    description?: string;
    type?: "external" | "coming-soon";
  }) => ({ description: "", type: "external" as const, ...row });
  await db
    .insertInto("tips_resources")
    .values([
      // Inserted out of order: cards follow order_index, blocks the fixed category order.
      tip({
        id: "tip-career",
        category: "Career",
        title: "Career ladder",
        url: "https://example.com/career",
        order_index: 0,
      }),
      tip({
        id: "tip-soon",
        category: "Tenable",
        title: "Tenable dashboards",
        description: "Coming up next.",
        url: null,
        type: "coming-soon",
        order_index: 1,
      }),
      tip({
        id: "tip-linked",
        category: "Tenable",
        title: "Credentialed scans",
        description: "Why they matter.",
        url: "https://example.com/tenable",
        order_index: 0,
      }),
      tip({ id: "tip-aws", category: "AWS", title: "IAM hygiene", url: "https://example.com/aws", order_index: 0 }),
    ])
    .execute();

  await db
    .insertInto("resources")
    .values(
      [
        { id: "res-1", name: "OWASP", url: "https://owasp.org", category: "Learning" as const, featured: true },
        { id: "res-2", name: "Nmap", url: "https://nmap.org", category: "Tools" as const, featured: true },
        {
          id: "res-3",
          name: "HackTheBox",
          url: "https://hackthebox.com",
          category: "Learning" as const,
          featured: false,
        },
        { id: "res-4", name: "Wireshark", url: "https://wireshark.org", category: "Tools" as const, featured: false },
        // A page of this site, by its path.
        {
          id: "res-6",
          name: "Start here",
          url: "/projects/getting-started",
          category: "Learning" as const,
          featured: false,
        },
        {
          id: "res-5",
          name: "CISSP guide",
          url: "https://isc2.org",
          category: "Certifications" as const,
          featured: false,
        },
      ].map((resource, index) => ({
        ...resource,
        // A featured card and a plain one with a long link in their text.
        description: resource.id === "res-1" || resource.id === "res-5" ? LONG_URL : `About ${resource.name}.`,
        order_index: index,
      })),
    )
    .execute();

  await db.updateTable("site_content").set({ value: "Ada Defender" }).where("key", "=", "about_name").execute();
  await db
    .insertInto("certifications")
    .values([
      {
        id: "cert-1",
        name: "Security+",
        organization: "CompTIA",
        description: "",
        status: "completed",
        date: "2022",
        order_index: 0,
      },
      {
        id: "cert-2",
        name: "AWS Security Specialty",
        organization: "AWS",
        description: "",
        status: "in-progress",
        date: "2024",
        order_index: 1,
      },
    ])
    .execute();
  await db
    .insertInto("skills")
    .values([
      { id: "skill-1", name: "Vulnerability management", level: 90, category: null, order_index: 0 },
      { id: "skill-2", name: "AWS", level: 75, category: "Cloud", order_index: 1 },
    ])
    .execute();
  await db
    .updateTable("site_settings")
    .set({ setting_value: LINKEDIN_URL })
    .where("setting_key", "=", "linkedin_url")
    .execute();
  await db
    .updateTable("site_settings")
    .set({ setting_value: RESUME_URL })
    .where("setting_key", "=", "resume_url")
    .execute();
}

/** Unbroken text where editors type: a tip, the biography and a certification (resources: fillContent). */
async function fillLongTexts(db: Kysely<Database>) {
  await db
    .insertInto("tips_resources")
    .values({
      id: "tip-long",
      category: "Career",
      title: "Long link",
      description: LONG_URL,
      url: LONG_URL,
      type: "external",
      order_index: 0,
    })
    .execute();
  await db.updateTable("site_content").set({ value: LONG_URL }).where("key", "=", "about_bio_1").execute();
  await db
    .insertInto("certifications")
    .values({
      id: "cert-long",
      name: "Long link",
      organization: "Example",
      description: LONG_URL,
      status: "completed",
      date: "2024",
      order_index: 0,
    })
    .execute();
}

beforeAll(async () => {
  const [dataDir, emptyDataDir] = await Promise.all([
    seed(fillContent),
    seed(async (db) => {
      await db
        .updateTable("home_page_content")
        .set({ content_value: "false" })
        .where("section_key", "=", "newsletter_section_visible")
        .execute();
      await fillLongTexts(db);
      // Only the About page's name is required: the editor left its title and mission blank.
      await db
        .updateTable("site_content")
        .set({ value: "" })
        .where("key", "in", ["about_title", "about_mission"])
        .execute();
    }),
  ]);
  [server, emptyServer] = await Promise.all([
    startServer({ dataDir }),
    startServer({ dataDir: emptyDataDir }),
    launchBrowser(),
  ]);
});

afterAll(async () => {
  await closeBrowser();
  await Promise.all([server?.stop(), emptyServer?.stop()]);
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

async function serveImage(page: Page) {
  await page.route(`**${IMAGE_SRC}`, (route) =>
    route.fulfill({ status: 200, contentType: "image/png", body: PIXEL_PNG }),
  );
}

async function metaContent(page: Page, selector: string): Promise<string | null> {
  return page.locator(selector).first().getAttribute("content");
}

describe.each([
  { javaScript: "on", javaScriptEnabled: true },
  { javaScript: "off", javaScriptEnabled: false },
])("public screens with JavaScript $javaScript", ({ javaScriptEnabled }) => {
  it("home: hero from content, invisible button hidden, newsletter section, meta tags", async () => {
    await withPage({ javaScriptEnabled }, async ({ page }) => {
      await page.goto(`${server.url}/`);
      expect(await textOf(page.getByRole("heading", { level: 1 }))).toBe("Defend like an attacker thinks");
      expect(await textOf(page.getByTestId("hero-tagline"))).toContain("Cybersecurity engineer");
      const primary = page.getByTestId("hero-primary");
      expect(await textOf(primary)).toBe("Start the course");
      expect(await primary.getAttribute("href")).toBe("/projects/getting-started");
      expect(await page.getByTestId("hero-secondary").count()).toBe(0);
      expect(await page.getByTestId("newsletter-section").isVisible()).toBe(true);
      // The newsletter put the subscribe form in the section (tested in e2e/newsletter.test.ts).
      expect(await page.locator("[data-testid=newsletter-section] form").count()).toBe(1);

      expect(await page.title()).toBe("Bastion");
      expect(await page.locator('link[rel="canonical"]').getAttribute("href")).toBe(`${server.url}/`);
      expect(await metaContent(page, 'meta[property="og:url"]')).toBe(`${server.url}/`);
      expect(await metaContent(page, 'meta[name="description"]')).toContain("Hands-on projects");
      await expectNoAxeViolations(page);

      await primary.click();
      await page.waitForURL(`${server.url}/projects/getting-started`);
    });
  });

  it("reader: first chapter at /projects, sections, sidebar of published chapters, prev/next at both ends", async () => {
    await withPage({ javaScriptEnabled }, async ({ page }) => {
      if (javaScriptEnabled) await serveImage(page);
      await page.goto(`${server.url}/projects`);
      expect(await textOf(page.getByRole("heading", { level: 1 }))).toBe("Getting Started");
      expect(await page.title()).toBe("Getting Started · Projects & Courses · Bastion");
      // The chapter's own URL is its canonical one, also when /projects shows it.
      expect(await page.locator('link[rel="canonical"]').getAttribute("href")).toBe(
        `${server.url}/projects/getting-started`,
      );
      expect(await metaContent(page, 'meta[property="og:type"]')).toBe("article");

      const sidebar = page.getByTestId("chapters-sidebar");
      expect(await sidebar.getByRole("link").allTextContents()).toEqual([
        "01Getting Started",
        "02Scanning Basics",
        "03Cloud Hardening",
      ]);
      expect(await sidebar.getByRole("link", { name: /Getting Started/ }).getAttribute("aria-current")).toBe("page");

      const chapter = page.getByTestId("chapter");
      const heading = chapter.getByRole("heading", { level: 2, name: "Why scanning matters" });
      expect(await heading.getAttribute("id")).toBe("why-scanning-matters");
      // Text split on blank lines, never parsed as HTML.
      expect(await chapter.locator("p", { hasText: "paragraph" }).allTextContents()).toEqual([
        "First paragraph about <b>scanning</b>.",
        "Second paragraph.",
      ]);
      expect(await chapter.locator("b").count()).toBe(0);
      expect(await textOf(page.getByTestId("tip-callout"))).toContain("Always scan with credentials.");
      expect(await chapter.locator("ul li").allTextContents()).toEqual([
        "Inventory assets",
        "Scan weekly",
        "Patch criticals first",
      ]);
      const highlighted = page.getByTestId("code-block").nth(0);
      const plain = page.getByTestId("code-block").nth(1);
      expect(await highlighted.locator("pre.shiki span").count()).toBeGreaterThan(3);
      expect(await textOf(highlighted.locator("figcaption"))).toBe("A typed constant");
      expect(await plain.locator("pre.shiki").count()).toBe(0);
      expect(await textOf(plain.locator("pre"))).toBe("plain <text> here");
      const image = page.getByTestId("image-link");
      expect(await image.getAttribute("href")).toBe(IMAGE_SRC);
      expect(await image.locator("img").getAttribute("alt")).toBe("Network diagram");

      // First chapter: Previous is disabled and not a link.
      const previous = page.getByTestId("pager-previous");
      expect(await previous.evaluate((element) => element.tagName)).toBe("SPAN");
      expect(await previous.getAttribute("aria-disabled")).toBe("true");
      await expectNoAxeViolations(page);

      await page.getByTestId("pager-next").click();
      await page.waitForURL(`${server.url}/projects/scanning-basics`);
      await expect.poll(() => textOf(page.getByRole("heading", { level: 1 }))).toBe("Scanning Basics");
      expect(await page.getByTestId("pager-previous").getAttribute("href")).toBe("/projects/getting-started");

      await page
        .getByTestId("chapters-sidebar")
        .getByRole("link", { name: /Cloud Hardening/ })
        .click();
      await page.waitForURL(`${server.url}/projects/cloud-hardening`);
      await expect.poll(() => textOf(page.getByRole("heading", { level: 1 }))).toBe("Cloud Hardening");
      const next = page.getByTestId("pager-next");
      expect(await next.evaluate((element) => element.tagName)).toBe("SPAN");
      expect(await next.getAttribute("aria-disabled")).toBe("true");
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
    });
  });

  it("reader on a small screen: the chapter list is a collapsed disclosure that opens", async () => {
    await withPage({ javaScriptEnabled, viewport: MOBILE_VIEWPORT }, async ({ page }) => {
      await page.goto(`${server.url}/projects`);
      expect(await page.getByTestId("chapters-sidebar").isVisible()).toBe(false);
      const disclosure = page.getByTestId("chapters-mobile");
      const link = disclosure.getByRole("link", { name: /Scanning Basics/ });
      expect(await link.isVisible()).toBe(false);
      await disclosure.locator("summary").click();
      await link.waitFor({ state: "visible" });
      await expectNoAxeViolations(page);
      await link.click();
      await page.waitForURL(`${server.url}/projects/scanning-basics`);
    });
  });

  it("tips: intro, the four categories in order, link cards in a new tab, dimmed card without url", async () => {
    await withPage({ javaScriptEnabled }, async ({ page }) => {
      await page.goto(`${server.url}/blog`);
      expect(await textOf(page.getByRole("heading", { level: 1 }))).toBe("Tips & Tricks");
      expect(await page.getByTestId("tips-intro").isVisible()).toBe(true);
      expect(await page.getByTestId("tip-category").getByRole("heading", { level: 2 }).allTextContents()).toEqual([
        "Tenable",
        "AWS",
        "Security Tips",
        "Career",
      ]);
      const tenable = page.getByTestId("tip-category").first();
      const cards = tenable.getByTestId("tip-card");
      expect(await cards.locator("h3").allTextContents()).toEqual(["Credentialed scans", "Tenable dashboards"]);

      const linked = cards.nth(0);
      expect(await linked.getAttribute("href")).toBe("https://example.com/tenable");
      expect(await linked.getAttribute("target")).toBe("_blank");
      expect(await linked.getAttribute("rel")).toBe("noopener noreferrer");
      expect(await linked.getByTestId("external-icon").count()).toBe(1);

      const dimmed = cards.nth(1);
      expect(await dimmed.evaluate((element) => element.tagName)).toBe("DIV");
      expect(await dimmed.getAttribute("data-dimmed")).toBe("true");
      expect(await dimmed.locator("a").count()).toBe(0);
      expect(await textOf(dimmed)).toContain("Coming Soon");
      expect(await metaContent(page, 'meta[property="og:title"]')).toBe("Tips & Tricks");
      await expectNoAxeViolations(page);
    });
  });

  it("resources: featured grid, then non-empty categories in order", async () => {
    await withPage({ javaScriptEnabled }, async ({ page }) => {
      await page.goto(`${server.url}/resources`);
      const featured = page.getByTestId("featured-resources");
      expect(await textOf(featured.getByRole("heading", { level: 2 }))).toBe("Featured Resources");
      expect(await featured.locator("h3").allTextContents()).toEqual(["OWASP", "Nmap"]);
      const more = page.getByTestId("more-resources");
      expect(await textOf(more.getByRole("heading", { level: 2 }))).toBe("More Resources");
      // News has no resource: hidden.
      expect(await more.locator("h3").allTextContents()).toEqual(["Learning", "Tools", "Certifications"]);
      const card = more.getByTestId("resource-card").first();
      expect(await card.getAttribute("target")).toBe("_blank");
      expect(await card.getAttribute("rel")).toBe("noopener noreferrer");
      // A resource on this site links to its page, in the same tab.
      const onSite = more.getByTestId("resource-card").filter({ hasText: "Start here" });
      expect(await onSite.getAttribute("href")).toBe("/projects/getting-started");
      expect(await onSite.getAttribute("target")).toBeNull();
      await expectNoAxeViolations(page);
      await onSite.click();
      await page.waitForURL(`${server.url}/projects/getting-started`);
    });
  });

  it("about: name, bio, experience, certifications, skills, LinkedIn and resume", async () => {
    await withPage({ javaScriptEnabled }, async ({ page }) => {
      await page.goto(`${server.url}/about`);
      expect(await textOf(page.getByTestId("about-name"))).toBe("Ada Defender");
      expect(await textOf(page.getByTestId("about-title"))).toBe("Cybersecurity Engineer");
      expect(await page.getByTestId("about-bio").locator("p").count()).toBe(3);
      expect(await textOf(page.getByTestId("about-mission"))).toContain("practical security knowledge");
      const experience = await textOf(page.getByTestId("experience"));
      expect(experience).toContain("May 2023 – Present");
      expect(experience).toContain("June 2022 – May 2023");
      const certifications = page.getByTestId("certification");
      expect(await certifications.count()).toBe(2);
      expect(await textOf(certifications.nth(0))).toContain("Completed");
      expect(await textOf(certifications.nth(1))).toContain("In Progress");
      const bars = page.getByRole("progressbar");
      expect(await bars.count()).toBe(2);
      expect(await bars.nth(0).getAttribute("aria-valuenow")).toBe("90");
      expect(await textOf(page.getByTestId("skill").nth(0))).toContain("90%");
      expect(await page.getByTestId("about-linkedin").getAttribute("href")).toBe(LINKEDIN_URL);
      expect(await textOf(page.getByTestId("about-linkedin"))).toBe("Connect on LinkedIn");
      expect(await page.getByTestId("about-resume").getAttribute("href")).toBe(RESUME_URL);
      await expectNoAxeViolations(page);
    });
  });

  it("Coming Soon when no chapter is published; the newsletter section hidden when switched off", async () => {
    await withPage({ javaScriptEnabled }, async ({ page }) => {
      await page.goto(`${emptyServer.url}/projects`);
      expect(await textOf(page.getByRole("heading", { level: 1 }))).toBe("Projects & Courses");
      expect(await textOf(page.getByTestId("coming-soon").getByRole("heading", { level: 2 }))).toBe("Coming Soon");
      expect(await textOf(page.getByTestId("coming-soon"))).toContain("No chapters available");
      await expectNoAxeViolations(page);
      await page.goto(`${emptyServer.url}/`);
      await page.getByRole("heading", { level: 1 }).waitFor();
      expect(await page.getByTestId("newsletter-section").count()).toBe(0);
      await page.goto(`${emptyServer.url}/resources`);
      expect(await textOf(page.getByTestId("resources-empty"))).toBe("No resources found.");
    });
  });

  it("theme toggle: the choice is kept in the cookie and, with JavaScript, applies before the next page's first paint", async () => {
    await withPage({ javaScriptEnabled }, async ({ page, context }) => {
      const theme = () => page.locator("html").getAttribute("data-theme");
      const pressed = (option: string) => page.locator(`[data-theme-option="${option}"]`).getAttribute("aria-pressed");
      if (javaScriptEnabled) {
        // The document's theme when <body> first appears: before any paint of the page's content.
        await page.addInitScript(() => {
          const observer = new MutationObserver(() => {
            if (!document.body) return;
            (window as unknown as { themeAtBody?: string }).themeAtBody = document.documentElement.dataset.theme;
            observer.disconnect();
          });
          // Run before <html> exists: the whole document is watched.
          observer.observe(document, { childList: true, subtree: true });
        });
      }
      await page.goto(`${server.url}/blog`);
      await waitForPageScript(page);
      expect(await theme()).toBe("system");
      await page.locator('[data-theme-option="dark"]').click();
      if (!javaScriptEnabled) await page.waitForURL(`${server.url}/blog`);
      expect((await context.cookies()).find((cookie) => cookie.name === "theme")?.value).toBe("dark");

      // The public pages are the same for every visitor (the page cache keeps one copy).
      const response = await page.goto(`${server.url}/about`);
      expect(await response?.text()).toMatch(/<html[^>]*data-theme="system"/);
      // Its inline scripts run by their hashes: the page carries no nonce (withPage fails on a CSP error).
      expect(response?.headers()["content-security-policy"]).toMatch(/script-src 'self' 'sha256-/);
      expect(response?.headers()["content-security-policy"]).not.toMatch(/nonce/);
      await waitForPageScript(page);
      if (javaScriptEnabled) {
        expect(await page.evaluate(() => (window as unknown as { themeAtBody?: string }).themeAtBody)).toBe("dark");
        expect(await theme()).toBe("dark");
        await expect.poll(() => pressed("dark")).toBe("true");
        expect(await pressed("system")).toBe("false");
      } else {
        // Without JavaScript the public pages show the system theme.
        expect(await theme()).toBe("system");
        expect(await pressed("system")).toBe("true");
      }
      await expectNoAxeViolations(page);

      await page.locator('[data-theme-option="system"]').click();
      if (!javaScriptEnabled) await page.waitForURL(`${server.url}/about`);
      await expect.poll(theme).toBe("system");
      expect((await context.cookies()).find((cookie) => cookie.name === "theme")).toBeUndefined();
      if (javaScriptEnabled) {
        await page.locator('[data-theme-option="light"]').click();
        expect(await theme()).toBe("light");
        expect(await pressed("light")).toBe("true");
      }
    });
  });
});

describe("reader with JavaScript", () => {
  it("copy button: copies the code and shows the copied state for 2 seconds", async () => {
    await withPage({}, async ({ page, context }) => {
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
      await page.goto(`${server.url}/projects/getting-started`);
      const button = page.getByTestId("copy-code").first();
      await button.waitFor();
      expect(await textOf(button)).toBe("Copy code");
      await button.click();
      const copiedAt = Date.now();
      await expect.poll(() => textOf(button)).toBe("Copied!");
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("const answer: number = 42;");
      await expect.poll(() => textOf(button), { timeout: 4_000, interval: 100 }).toBe("Copy code");
      const elapsed = Date.now() - copiedAt;
      expect(elapsed).toBeGreaterThanOrEqual(1_900);
      expect(elapsed).toBeLessThan(3_000);
    });
  });

  it("copy button without the clipboard permission: copies by selection and keeps the focus", async () => {
    await withPage({}, async ({ page }) => {
      await page.goto(`${server.url}/projects/getting-started`);
      // The button answers once the page's script has loaded (it loads late, on a busy machine later still).
      await waitForPageScript(page);
      const button = page.getByTestId("copy-code").first();
      await button.focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => textOf(button)).toBe("Copied!");
      expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("copy-code");
    });
  });

  it("lightbox: an image opens in a dialog closed by Escape or by a click", async () => {
    await withPage({}, async ({ page }) => {
      await serveImage(page);
      await page.goto(`${server.url}/projects/getting-started`);
      const link = page.getByTestId("image-link");
      const lightbox = page.getByTestId("lightbox");
      // Hydration first: before it, a click would follow the link.
      await page.getByTestId("copy-code").first().waitFor();

      await link.click();
      await lightbox.waitFor({ state: "visible" });
      expect(await lightbox.evaluate((dialog) => (dialog as HTMLDialogElement).open)).toBe(true);
      expect(page.url()).toBe(`${server.url}/projects/getting-started`);
      await page.keyboard.press("Escape");
      await lightbox.waitFor({ state: "detached" });

      await link.click();
      await lightbox.waitFor({ state: "visible" });
      await page.mouse.click(10, 10);
      await lightbox.waitFor({ state: "detached" });
    });
  });

  it("axe: every public screen passes in the light and the dark theme", async () => {
    for (const theme of ["light", "dark"]) {
      await withPage({}, async ({ page, context }) => {
        await context.addCookies([{ name: "theme", value: theme, url: server.url }]);
        await serveImage(page);
        for (const pathname of ["/", "/projects/getting-started", "/blog", "/resources", "/about"]) {
          await page.goto(`${server.url}${pathname}`);
          expect(await page.locator("html").getAttribute("data-theme")).toBe(theme);
          await expectNoAxeViolations(page);
        }
      });
    }
  });
});

describe("long unbroken text", () => {
  it("breaks instead of widening any public page, on a phone and on a desktop", async () => {
    const pages = [
      `${server.url}/projects/cloud-hardening`,
      `${emptyServer.url}/blog`,
      `${server.url}/resources`,
      `${emptyServer.url}/about`,
    ];
    for (const viewport of [MOBILE_VIEWPORT, DESKTOP_VIEWPORT]) {
      await withPage({ viewport }, async ({ page }) => {
        for (const url of pages) {
          await page.goto(url);
          expect(await page.getByText(LONG_URL).count(), url).toBeGreaterThan(0);
          await expectNoSideScroll(page, `${new URL(url).pathname} at ${viewport.width} px`);
        }
      });
    }
  });
});

describe("about with blank texts", () => {
  it("a blank title and mission leave no empty card and no stray punctuation in the description", async () => {
    await withPage({}, async ({ page }) => {
      await page.goto(`${emptyServer.url}/about`);
      expect(await textOf(page.getByTestId("about-name"))).toBe("Your Name");
      expect(await page.getByTestId("about-title").count()).toBe(0);
      expect(await page.getByTestId("about-mission").count(), "no Mission card without a mission").toBe(0);
      expect(await page.getByRole("heading", { name: "Mission" }).count()).toBe(0);
      // "Name. Biography", never "Name, . Biography".
      for (const selector of ['meta[name="description"]', 'meta[property="og:description"]']) {
        const description = (await metaContent(page, selector)) ?? "";
        expect(description, selector).toMatch(/^Your Name\. https:\/\/example\.com\/download/);
        expect(description, selector).not.toMatch(/,\s*\./);
      }
      await expectNoAxeViolations(page);
    });
  });
});

describe("printing", () => {
  it("prints a page's own header (title, name, biography) but not the site's header, navigation or footer", async () => {
    await withPage({}, async ({ page }) => {
      await page.emulateMedia({ media: "print" });
      const pages = [
        { path: "/about", title: "Ada Defender" },
        { path: "/blog", title: "Tips & Tricks" },
        { path: "/resources", title: "Resources" },
        { path: "/projects/getting-started", title: "Getting Started" },
      ];
      for (const { path: pathname, title } of pages) {
        await page.goto(`${server.url}${pathname}`);
        const heading = page.getByRole("heading", { level: 1 });
        expect(await heading.isVisible(), `${pathname}: its title prints`).toBe(true);
        expect(await textOf(heading)).toBe(title);
        expect(await page.getByTestId("primary-nav").isVisible(), `${pathname}: site navigation`).toBe(false);
        expect(await page.getByTestId("theme-toggle").isVisible(), `${pathname}: theme toggle`).toBe(false);
        expect(await page.locator("footer").isVisible(), `${pathname}: site footer`).toBe(false);
      }
      await page.goto(`${server.url}/about`);
      expect(await page.getByTestId("about-bio").isVisible()).toBe(true);
      expect(await page.getByTestId("about-mission").isVisible()).toBe(true);
    });
  });

  it("prints dark text on white paper in the dark theme too", async () => {
    for (const theme of ["dark", "system"]) {
      await withPage({}, async ({ page, context }) => {
        if (theme !== "system") await context.addCookies([{ name: "theme", value: theme, url: server.url }]);
        await page.emulateMedia({ media: "print", colorScheme: "dark" });
        await page.goto(`${server.url}/projects/getting-started`);
        // Browsers print no backgrounds by default: each text's contrast with the white paper.
        const contrasts = await page.evaluate(() => {
          const luminance = (color: string) => {
            const [r = 0, g = 0, b = 0] = (color.match(/[\d.]+/g) ?? []).map(Number).map((channel) => {
              const value = channel / 255;
              return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
            });
            return 0.2126 * r + 0.7152 * g + 0.0722 * b;
          };
          const texts = [...document.querySelectorAll("[data-testid=chapter] :is(h1, h2, p, li, .shiki span)")];
          return texts
            .filter((element) => (element.textContent ?? "").trim() !== "")
            .map((element) => ({
              text: `${element.tagName.toLowerCase()} "${(element.textContent ?? "").trim().slice(0, 20)}"`,
              contrast: 1.05 / (luminance(getComputedStyle(element).color) + 0.05),
            }))
            .filter(({ contrast }) => contrast < 3)
            .map(({ text, contrast }) => `${text}: ${contrast.toFixed(2)}:1`);
        });
        expect(contrasts, `texts too pale on paper, ${theme} theme`).toEqual([]);
      });
    }
  });
});

/**
 * Tabs through the page from its top to its last control and returns every control
 * whose focus outline is missing or cut off by a scrolling or clipping ancestor.
 */
async function focusOutlineProblems(page: Page): Promise<string[]> {
  const problems: string[] = [];
  for (let presses = 0; presses < 100; presses++) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => {
      const element = document.activeElement;
      if (!(element instanceof HTMLElement) || element === document.body) return null;
      if (element.hasAttribute("data-outline-checked")) return { again: true, problems: [] };
      element.setAttribute("data-outline-checked", "");
      const name = `${element.tagName.toLowerCase()} "${(element.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 30)}"`;
      const style = getComputedStyle(element);
      if (style.outlineStyle === "none" || Number.parseFloat(style.outlineWidth) === 0) {
        return { again: false, problems: [`${name}: no focus outline`] };
      }
      const reach = Number.parseFloat(style.outlineWidth) + Number.parseFloat(style.outlineOffset);
      const box = element.getBoundingClientRect();
      const found: string[] = [];
      for (let ancestor = element.parentElement; ancestor; ancestor = ancestor.parentElement) {
        if (ancestor === document.body || ancestor === document.documentElement) break;
        const clip = getComputedStyle(ancestor);
        if (clip.overflowX === "visible" && clip.overflowY === "visible") continue;
        const outer = ancestor.getBoundingClientRect();
        const left = outer.left + ancestor.clientLeft;
        const top = outer.top + ancestor.clientTop;
        const sides = [
          box.left - reach < left - 0.5 && "left",
          box.right + reach > left + ancestor.clientWidth + 0.5 && "right",
          box.top - reach < top - 0.5 && "top",
          box.bottom + reach > top + ancestor.clientHeight + 0.5 && "bottom",
        ].filter(Boolean);
        if (sides.length > 0)
          found.push(`${name}: outline cut off (${sides.join(", ")}) by its ${ancestor.tagName.toLowerCase()}`);
      }
      return { again: false, problems: found };
    });
    if (!focused || focused.again) break;
    problems.push(...focused.problems);
  }
  return problems;
}

describe("keyboard focus", () => {
  it("every control Tab reaches on a public page shows its whole focus outline", async () => {
    for (const viewport of [DESKTOP_VIEWPORT, MOBILE_VIEWPORT]) {
      await withPage({ viewport }, async ({ page }) => {
        await serveImage(page);
        for (const pathname of ["/", "/projects/getting-started", "/blog", "/resources", "/about"]) {
          await page.goto(`${server.url}${pathname}`);
          await waitForPageScript(page);
          // On a phone the chapter list is a disclosure: opened, its links are reached too.
          const chapters = page.getByTestId("chapters-mobile");
          if (viewport === MOBILE_VIEWPORT && (await chapters.count()) > 0) {
            await chapters.evaluate((details) => details.setAttribute("open", ""));
          }
          expect(await focusOutlineProblems(page), `${pathname} at ${viewport.width} px`).toEqual([]);
        }
      });
    }
  });
});

describe("reader over HTTP", () => {
  it("drafts and unknown chapters are 404; a former slug redirects permanently", async () => {
    const draft = await fetch(`${server.url}/projects/${DRAFT.slug}`);
    expect(draft.status).toBe(404);
    expect(await draft.text()).not.toContain("Secret Draft");
    expect((await fetch(`${server.url}/projects/no-such-chapter`)).status).toBe(404);

    const moved = await fetch(`${server.url}/projects/${FORMER_SLUG}`, { redirect: "manual" });
    expect(moved.status).toBe(301);
    expect(new URL(moved.headers.get("location") ?? "", server.url).pathname).toBe("/projects/scanning-basics");

    // The sidebar never lists the draft.
    expect(await (await fetch(`${server.url}/projects`)).text()).not.toContain("Secret Draft");
  });
});

describe("public pages' scripts over HTTP", () => {
  it("content pages carry no framework script, only the late loader of their own; the newsletter pages are hydrated", async () => {
    for (const page of ["/", "/projects", "/projects/getting-started", "/blog", "/resources", "/about"]) {
      const html = await (await fetch(`${server.url}${page}`)).text();
      expect(html, page).not.toContain('rel="modulepreload"');
      expect(html, page).not.toMatch(/<script[^>]*type="module"/);
      expect(html, page).toMatch(/addEventListener\("load",[^<]*\/assets\/public-page-[\w-]+\.js/);
    }
    const confirm = await (await fetch(`${server.url}/newsletter/confirm`)).text();
    expect(confirm).toContain('rel="modulepreload"');
    expect(confirm).toContain("window.__reactRouterContext");
  });
});
