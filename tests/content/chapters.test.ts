import { describe, expect, it } from "vitest";
import {
  createChapter,
  createSection,
  deleteChapter,
  deleteSection,
  getChapter,
  listSections,
  moveSection,
  updateChapter,
  updateSection,
} from "../../server/content/chapters.ts";
import { slugify } from "../../server/content/slugs.ts";
import { Invalid, NotFound } from "../../server/errors.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { useContentFixture } from "./fixture.ts";

describe("chapter slugs", () => {
  it("are lower-case ASCII words joined by hyphens", () => {
    expect(slugify("  Getting Started with Nessus!  ")).toBe("getting-started-with-nessus");
    expect(slugify("Café & Crème: Ünïcode")).toBe("cafe-and-creme-unicode");
    expect(slugify("???")).toBe("chapter");
  });
});

describe.each(TEST_DIALECTS)("chapters and sections on %s", (dialect) => {
  const f = useContentFixture(dialect);

  it("numbers new chapters after the highest number and order_index, published by default", async () => {
    const first = await createChapter(f.store, { title: "Introduction" });
    expect(first).toMatchObject({ number: 1, orderIndex: 0, published: true, slug: "introduction" });
    expect(first.publishedAt).toMatch(/Z$/);
    await updateChapter(f.store, first.id, { number: 7, orderIndex: 4 });
    const second = await createChapter(f.store, { title: "Scanning", published: false });
    expect(second).toMatchObject({ number: 8, orderIndex: 5, published: false, publishedAt: null });
    await deleteChapter(f.store, first.id);
    await deleteChapter(f.store, second.id);
  });

  it("rejects a blank title with the spec's message", async () => {
    const error = await createChapter(f.store, { title: "   " }).catch((e) => e);
    expect(error).toBeInstanceOf(Invalid);
    expect(error.fields).toEqual({ title: "Chapter title is required" });
  });

  it("keeps slugs unique with -2, -3 and redirects a renamed chapter's old slug", async () => {
    const a = await createChapter(f.store, { title: "Cloud Hardening" });
    const b = await createChapter(f.store, { title: "Cloud hardening" });
    const c = await createChapter(f.store, { title: "cloud  HARDENING!" });
    expect([a.slug, b.slug, c.slug]).toEqual(["cloud-hardening", "cloud-hardening-2", "cloud-hardening-3"]);

    const renamed = await updateChapter(f.store, a.id, { title: "AWS Account Hardening" });
    expect(renamed.slug).toBe("aws-account-hardening");
    expect(await f.content.chapter("cloud-hardening")).toEqual({ kind: "redirect", slug: "aws-account-hardening" });

    // The old slug stays reserved for the redirect: a new chapter with that title gets another.
    const d = await createChapter(f.store, { title: "Cloud Hardening" });
    expect(d.slug).toBe("cloud-hardening-4");

    // Same title (or one giving the same slug) keeps the slug.
    expect((await updateChapter(f.store, b.id, { title: "Cloud Hardening" })).slug).toBe("cloud-hardening-2");

    // Renamed twice: both former slugs redirect to the current one; renamed back, it takes its slug again.
    await updateChapter(f.store, a.id, { title: "Hardening AWS" });
    expect(await f.content.chapter("cloud-hardening")).toEqual({ kind: "redirect", slug: "hardening-aws" });
    expect(await f.content.chapter("aws-account-hardening")).toEqual({ kind: "redirect", slug: "hardening-aws" });
    const back = await updateChapter(f.store, a.id, { title: "Cloud Hardening" });
    expect(back.slug).toBe("cloud-hardening");
    expect((await f.content.chapter("cloud-hardening")).kind).toBe("chapter");
    expect(await f.content.chapter("hardening-aws")).toEqual({ kind: "redirect", slug: "cloud-hardening" });

    for (const chapter of [a, b, c, d]) await deleteChapter(f.store, chapter.id);
    expect((await f.content.chapter("hardening-aws")).kind).toBe("missing");
  });

  it("never shows drafts (nor redirects to them), and sets published_at when first published", async () => {
    const draft = await createChapter(f.store, { title: "Secret Draft", published: false });
    expect(await f.content.chapter("secret-draft")).toEqual({ kind: "missing" });
    expect((await f.content.chapters()).map((chapter) => chapter.id)).not.toContain(draft.id);
    await updateChapter(f.store, draft.id, { title: "Still Secret" });
    expect(await f.content.chapter("secret-draft")).toEqual({ kind: "missing" });

    const published = await updateChapter(f.store, draft.id, { published: true });
    expect(published.publishedAt).not.toBeNull();
    expect((await f.content.chapter("still-secret")).kind).toBe("chapter");
    expect(await f.content.chapter("secret-draft")).toEqual({ kind: "redirect", slug: "still-secret" });

    const unpublished = await updateChapter(f.store, draft.id, { published: false });
    expect(unpublished.publishedAt).toBe(published.publishedAt);
    expect(await f.content.chapter("still-secret")).toEqual({ kind: "missing" });
    const again = await updateChapter(f.store, draft.id, { published: true });
    expect(again.publishedAt).toBe(published.publishedAt);
    await deleteChapter(f.store, draft.id);
  });

  it("appends sections, moves them by swapping with the neighbour, and deletes them with the chapter", async () => {
    const chapter = await createChapter(f.store, { title: "Sections" });
    const one = await createSection(f.store, { chapterId: chapter.id, type: "heading", content: "Setup" });
    const two = await createSection(f.store, {
      chapterId: chapter.id,
      type: "code",
      content: "nmap -sV host",
      language: "bash",
      caption: "Scan",
    });
    const three = await createSection(f.store, { chapterId: chapter.id, type: "text", content: "Done." });
    expect([one.orderIndex, two.orderIndex, three.orderIndex]).toEqual([0, 1, 2]);
    expect(two).toMatchObject({ caption: "Scan", language: "bash" });
    expect(one).toMatchObject({ caption: null, language: null });

    expect(await moveSection(f.store, one.id, "up")).toBe(false);
    expect(await moveSection(f.store, three.id, "down")).toBe(false);
    expect(await moveSection(f.store, three.id, "up")).toBe(true);
    expect((await listSections(f.handle.db, chapter.id)).map((s) => s.id)).toEqual([one.id, three.id, two.id]);
    expect(await moveSection(f.store, one.id, "down")).toBe(true);
    expect((await listSections(f.handle.db, chapter.id)).map((s) => s.id)).toEqual([three.id, one.id, two.id]);

    await updateSection(f.store, three.id, { content: "Done!", caption: "" });
    const page = await f.content.chapter("sections");
    if (page.kind !== "chapter") throw new Error("expected the chapter");
    expect(page.page.sections.map((s) => [s.type, s.content])).toEqual([
      ["text", "Done!"],
      ["heading", "Setup"],
      ["code", "nmap -sV host"],
    ]);

    await deleteSection(f.store, one.id);
    expect(await listSections(f.handle.db, chapter.id)).toHaveLength(2);
    await deleteChapter(f.store, chapter.id);
    expect(await listSections(f.handle.db, chapter.id)).toEqual([]);
    await expect(getChapter(f.handle.db, chapter.id)).rejects.toBeInstanceOf(NotFound);
  });

  it("validates sections: a chapter is needed, content non-blank, type known", async () => {
    const chapter = await createChapter(f.store, { title: "Validation" });
    const noChapter = await createSection(f.store, { chapterId: "", type: "text", content: "x" }).catch((e) => e);
    expect(noChapter.fields.chapterId).toBe("Please select a chapter first");
    const unknown = await createSection(f.store, { chapterId: "chapter-0-nope", type: "text", content: "x" }).catch(
      (e) => e,
    );
    expect(unknown.fields.chapterId).toBe("Please select a chapter first");
    const blank = await createSection(f.store, { chapterId: chapter.id, type: "text", content: " \n " }).catch(
      (e) => e,
    );
    expect(blank.fields.content).toBe("Section content is required");
    const badType = await createSection(f.store, {
      chapterId: chapter.id,
      type: "video" as "text",
      content: "x",
    }).catch((e) => e);
    expect(badType).toBeInstanceOf(Invalid);
    await expect(updateSection(f.store, "section-0-nope", { content: "x" })).rejects.toBeInstanceOf(NotFound);
    await deleteChapter(f.store, chapter.id);
  });
});
