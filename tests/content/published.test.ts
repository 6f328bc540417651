import { SelectQueryNode, sql, TableNode } from "kysely";
import { describe, expect, it } from "vitest";
import { updateAboutContent } from "../../server/content/about.ts";
import { createChapter, deleteChapter, updateChapter } from "../../server/content/chapters.ts";
import { getHomeContentForEditor, updateHomeContent } from "../../server/content/home.ts";
import {
  createCertification,
  createSkill,
  createTimelineEvent,
  listSkills,
  listTimelineEvents,
  moveSkillUp,
  moveTimelineEventUp,
} from "../../server/content/profile.ts";
import { createPublishedContent } from "../../server/content/published.ts";
import { createResource } from "../../server/content/resources.ts";
import { createSection } from "../../server/content/sections.ts";
import { updateSiteSettings } from "../../server/content/site-settings.ts";
import { createTip } from "../../server/content/tips.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { logger, useContentFixture } from "./fixture.ts";

/** Two reads in a row: the same snapshot when served from the cache. */
async function sameSnapshotTwice(read: () => Promise<unknown>): Promise<boolean> {
  const first = await read();
  const second = await read();
  return first === second;
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 1000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.each(TEST_DIALECTS)("published content on %s", (dialect) => {
  const f = useContentFixture(dialect);

  it("home: seeded texts, button links from metadata.link, invisible entries null, newsletter switch", async () => {
    expect(await f.content.home()).toMatchObject({
      headline: "Securing the cloud, one lesson at a time",
      primaryButton: { text: "Explore Projects", link: "/projects" },
      secondaryButton: { text: "Read Tips & Tricks", link: "/blog" },
      newsletterVisible: true,
    });
    const home = await getHomeContentForEditor(f.handle.db);
    await updateHomeContent(f.store, {
      button_primary_text: {
        revision: home.button_primary_text.revision,
        value: "Start learning",
        link: "https://example.com/start",
      },
      button_secondary_text: { revision: home.button_secondary_text.revision, value: "Read Tips & Tricks", link: "" },
      newsletter_section_visible: { revision: home.newsletter_section_visible.revision, value: "false" },
    });
    expect(await f.content.home()).toMatchObject({
      primaryButton: { text: "Start learning", link: "https://example.com/start" },
      secondaryButton: { text: "Read Tips & Tricks", link: "/blog" },
      newsletterVisible: false,
    });
    // Unsafe links stored behind the services' back are ignored on read; invisible entries are null.
    await f.handle.db
      .updateTable("home_page_content")
      .set({ metadata: JSON.stringify({ link: "//evil.example" }) as never })
      .where("section_key", "=", "button_primary_text")
      .execute();
    await f.handle.db
      .updateTable("home_page_content")
      .set({ is_visible: false })
      .where("section_key", "in", ["hero_tagline", "button_secondary_text"])
      .execute();
    await f.content.invalidate();
    expect(await f.content.home()).toMatchObject({
      tagline: null,
      primaryButton: { text: "Start learning", link: "/projects" },
      secondaryButton: null,
    });
    // Texts cleared in the editor are no texts: the page falls back to its defaults.
    const cleared = await getHomeContentForEditor(f.handle.db);
    await updateHomeContent(f.store, {
      hero_headline: { revision: cleared.hero_headline.revision, value: "   " },
      hero_description: { revision: cleared.hero_description.revision, value: "" },
    });
    expect(await f.content.home()).toMatchObject({ headline: null, description: null });
  });

  it("chapter pages: published ones by order_index with previous/next, sections in order", async () => {
    expect(await f.content.chapters()).toEqual([]);
    const one = await createChapter(f.store, { title: "One" });
    const draft = await createChapter(f.store, { title: "Draft", published: false });
    const two = await createChapter(f.store, { title: "Two" });
    const three = await createChapter(f.store, { title: "Three" });
    await updateChapter(f.store, three.id, { revision: three.revision, orderIndex: 0 });
    await updateChapter(f.store, one.id, { revision: one.revision, orderIndex: 1 });
    await createSection(f.store, { chapterId: two.id, type: "heading", content: "Hello" });
    await createSection(f.store, { chapterId: two.id, type: "list", content: "a\nb" });

    expect((await f.content.chapters()).map((c) => c.slug)).toEqual(["three", "one", "two"]);
    const first = await f.content.chapter("three");
    if (first.kind !== "chapter") throw new Error("expected a chapter");
    expect(first.page.previous).toBeNull();
    expect(first.page.next?.slug).toBe("one");
    const last = await f.content.chapter("two");
    if (last.kind !== "chapter") throw new Error("expected a chapter");
    expect(last.page.previous).toMatchObject({ slug: "one", title: "One", number: 1 });
    expect(last.page.next).toBeNull();
    expect(last.page.chapter).toMatchObject({ id: two.id, slug: "two", title: "Two", number: 3 });
    expect(last.page.chapter.publishedAt).toMatch(/Z$/);
    expect(last.page.sections).toEqual([
      expect.objectContaining({ type: "heading", content: "Hello", caption: null, language: null }),
      expect.objectContaining({ type: "list", content: "a\nb" }),
    ]);
    expect(await f.content.chapter("draft")).toEqual({ kind: "missing" });
    expect(await f.content.chapter("no-such-chapter")).toEqual({ kind: "missing" });
    for (const chapter of [one, draft, two, three]) await deleteChapter(f.store, chapter.id);
  });

  it("never keeps a chapter page built from a chapter index that a write overtook", async () => {
    const intro = await createChapter(f.store, { title: "Intro" });
    const next = await createChapter(f.store, { title: "Next one" });
    // A second reader whose next read of the chapters table answers only when the test says so.
    let holdNext = false;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const heldQueries = new WeakSet<object>();
    const gatedDb = f.handle.db.withPlugin({
      transformQuery(args) {
        const from = SelectQueryNode.is(args.node) ? args.node.from?.froms[0] : undefined;
        if (holdNext && from && TableNode.is(from) && from.table.identifier.name === "chapters") {
          holdNext = false;
          heldQueries.add(args.queryId);
        }
        return args.node;
      },
      async transformResult(args) {
        if (heldQueries.has(args.queryId)) await held;
        return args.result;
      },
    });
    const databaseUrl = f.testDb.config.kind === "postgres" ? f.testDb.config.url : undefined;
    const reader = createPublishedContent({ db: gatedDb, dialect, databaseUrl, logger });
    await reader.ready();
    const store = {
      ...f.store,
      onChange: async () => {
        await Promise.all([f.content.invalidate(), reader.invalidate()]);
      },
    };
    try {
      holdNext = true;
      // The first visitor's read of the chapter index (before the write) is held back...
      const visitor = reader.chapter(intro.slug);
      await updateChapter(store, intro.id, { revision: intro.revision, title: "Introduction" });
      await updateChapter(store, next.id, { revision: next.revision, published: false });
      // ...and answers after the write.
      release();
      await visitor;
      const slug = (await reader.chapters()).find((chapter) => chapter.id === intro.id)?.slug as string;
      const page = await reader.chapter(slug);
      if (page.kind !== "chapter") throw new Error(`expected the chapter, got ${page.kind}`);
      expect(page.page.chapter.title).toBe("Introduction");
      expect(page.page.next).toBeNull();
    } finally {
      await reader.close();
      for (const chapter of [intro, next]) await deleteChapter(f.store, chapter.id);
    }
  });

  it("tips: four blocks in the spec's order, empty ones included, cards by order_index", async () => {
    await createTip(f.store, { category: "Career", title: "Career B", orderIndex: 2 });
    await createTip(f.store, { category: "Career", title: "Career A", orderIndex: 1, url: "https://a.example" });
    await createTip(f.store, { title: "Tenable default", type: "coming-soon", url: "" });
    const blocks = await f.content.tips();
    expect(blocks.map((block) => block.category)).toEqual(["Tenable", "AWS", "Security Tips", "Career"]);
    expect(blocks[1]?.tips).toEqual([]);
    expect(blocks[3]?.tips.map((tip) => tip.title)).toEqual(["Career A", "Career B"]);
    expect(blocks[0]?.tips[0]).toMatchObject({ title: "Tenable default", url: null, type: "coming-soon" });
  });

  it("resources: featured first, then the non-empty public categories in the spec's order by order_index", async () => {
    await createResource(f.store, { name: "Tool", url: "https://tool.example", category: "Tools" });
    await createResource(f.store, { name: "Svc", url: "https://svc.example", category: "Services", featured: true });
    await createResource(f.store, { name: "Hidden svc", url: "https://hidden.example", category: "Services" });
    await createResource(f.store, { name: "Cert", url: "https://cert.example", category: "Certifications" });
    await createResource(f.store, { name: "Course", url: "https://course.example" });
    const page = await f.content.resources();
    expect(page.featured.map((r) => r.name)).toEqual(["Svc"]);
    // Services is an admin-only category: never a group of More Resources.
    expect(page.categories.map((group) => group.category)).toEqual(["Learning", "Tools", "Certifications"]);
    expect(page.categories[0]?.resources[0]).toMatchObject({ name: "Course", category: "Learning", featured: false });
  });

  it("about: site content, certifications, skills and the timeline in order, links null when empty", async () => {
    await updateAboutContent(f.store, {
      about_name: { revision: 1, value: "Ada Lovelace" },
      about_bio_2: { revision: 1, value: "Second." },
    });
    await createCertification(f.store, { name: "CISSP", organization: "ISC2", date: "2024" });
    await createCertification(f.store, { name: "OSCP", status: "in-progress" });
    await createSkill(f.store, { name: "AWS", level: 90 });
    const nessus = await createSkill(f.store, { name: "Nessus", category: "Tools" });
    await moveSkillUp(f.store, nessus.id, (await listSkills(f.handle.db)).revision);
    await createTimelineEvent(f.store, { date: "2022-06", title: "Internship", category: "career" });
    const degree = await createTimelineEvent(f.store, { date: "2021", title: "BSc", description: "Computer science." });
    await moveTimelineEventUp(f.store, degree.id, (await listTimelineEvents(f.handle.db)).revision);
    await updateSiteSettings(f.store, {
      linkedin_url: { revision: 1, value: "https://linkedin.com/in/ada" },
      resume_url: { revision: 1, value: "" },
    });
    const about = await f.content.about();
    expect(about).toMatchObject({
      name: "Ada Lovelace",
      title: "Cybersecurity Engineer",
      mission: expect.any(String),
      linkedinUrl: "https://linkedin.com/in/ada",
      resumeUrl: null,
    });
    expect(about.bio[1]).toBe("Second.");
    expect(about.certifications.map((c) => [c.name, c.status])).toEqual([
      ["CISSP", "completed"],
      ["OSCP", "in-progress"],
    ]);
    expect(about.skills).toEqual([
      { id: nessus.id, name: "Nessus", level: 50, category: "Tools" },
      expect.objectContaining({ name: "AWS", level: 90, category: null }),
    ]);
    expect(about.timeline).toEqual([
      { id: degree.id, date: "2021", title: "BSc", description: "Computer science.", category: "project" },
      expect.objectContaining({ date: "2022-06", title: "Internship", description: "", category: "career" }),
    ]);
  });

  it("serves every read from the cache until a write through the services invalidates it", async () => {
    await f.content.invalidate();
    const readAll = () =>
      Promise.all([
        f.content.home(),
        f.content.chapters(),
        f.content.tips(),
        f.content.resources(),
        f.content.about(),
        f.content.chapter("nothing"),
      ]);
    const before = await readAll();
    const loads = f.content.loads();
    const version = f.content.version();
    const again = await readAll();
    for (const [index, value] of again.slice(0, 5).entries()) expect(value).toBe(before[index]);
    expect(f.content.loads()).toBe(loads);
    expect(f.content.version()).toBe(version);

    // A write behind the services' back is not seen: the snapshot is kept.
    await f.handle.db.updateTable("site_content").set({ value: "Sneaky" }).where("key", "=", "about_name").execute();
    expect((await f.content.about()).name).not.toBe("Sneaky");

    await createTip(f.store, { title: "Fresh tip", category: "AWS" });
    expect(f.content.version()).toBeGreaterThan(version);
    expect((await f.content.tips())[1]?.tips.map((tip) => tip.title)).toContain("Fresh tip");
    expect((await f.content.about()).name).toBe("Sneaky");
    expect(f.content.loads()).toBeGreaterThan(loads);
    // Snapshots are frozen: shared by every request, never mutated by one.
    expect(Object.isFrozen((await f.content.tips())[0])).toBe(true);
  });

  if (dialect === "postgres") {
    it("a write through one instance invalidates another instance within a second (LISTEN/NOTIFY)", async () => {
      const other = f.openInstance();
      await other.ready();
      const before = await other.tips();
      expect(await other.tips()).toBe(before);
      const version = other.version();
      await createTip(f.store, { title: "Seen everywhere", category: "Security Tips" });
      await waitFor(() => other.version() > version);
      expect((await other.tips())[2]?.tips.map((tip) => tip.title)).toContain("Seen everywhere");
    });

    it("serves uncached while the listener is disconnected, then reconnects and listens again", async () => {
      const other = f.openInstance();
      await other.ready();
      await other.resources();
      await sql`select pg_terminate_backend(pid) from pg_stat_activity
        where application_name = 'bastion-content-listener' and datname = current_database()`.execute(f.handle.db);
      // Disconnected: every read goes to the database (a new snapshot each time) and the version keeps moving.
      await waitFor(async () => !(await sameSnapshotTwice(() => other.resources())), 2000);
      // Reconnected: cached again, and notified of writes again.
      await waitFor(() => sameSnapshotTwice(() => other.resources()), 5000);
      await f.content.ready();
      const version = other.version();
      await createResource(f.store, { name: "After reconnect", url: "https://r.example" });
      await waitFor(() => other.version() > version);
      expect((await other.resources()).categories[0]?.resources.map((r) => r.name)).toContain("After reconnect");
    });
  }
});
