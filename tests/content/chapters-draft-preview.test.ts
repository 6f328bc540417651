import { describe, expect, it } from "vitest";
import { createChapter, updateChapter } from "../../server/content/chapters.ts";
import { readChapterPreview } from "../../server/content/draft-preview.ts";
import { createSection } from "../../server/content/sections.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { useContentFixture } from "./fixture.ts";

describe.each(TEST_DIALECTS)("the draft preview of a chapter on %s", (dialect) => {
  const f = useContentFixture(dialect);
  const db = () => f.handle.db;

  it("reads a draft with its sections, placed among the published chapters where it will stand", async () => {
    const first = await createChapter(f.store, { title: "First steps" });
    const draft = await createChapter(f.store, { title: "Work in progress", published: false });
    const hidden = await createChapter(f.store, { title: "Another draft", published: false });
    const last = await createChapter(f.store, { title: "Wrapping up" });
    await createSection(f.store, { chapterId: draft.id, type: "heading", content: "Soon" });
    await createSection(f.store, { chapterId: draft.id, type: "code", content: "nmap -sV host", language: "bash" });

    const preview = await readChapterPreview(db(), draft.slug);
    expect(preview?.published).toBe(false);
    // Other drafts stay out: the sidebar is the one visitors will get once this one is published.
    expect(preview?.chapters.map((chapter) => chapter.title)).toEqual([
      "First steps",
      "Work in progress",
      "Wrapping up",
    ]);
    expect(preview?.page.chapter).toMatchObject({
      id: draft.id,
      slug: "work-in-progress",
      number: 2,
      publishedAt: null,
    });
    expect(preview?.page.sections.map((section) => [section.type, section.content, section.language])).toEqual([
      ["heading", "Soon", null],
      ["code", "nmap -sV host", "bash"],
    ]);
    expect(preview?.page.previous?.id).toBe(first.id);
    expect(preview?.page.next?.id).toBe(last.id);
    expect((await readChapterPreview(db(), hidden.slug))?.chapters.map((chapter) => chapter.id)).toEqual([
      first.id,
      hidden.id,
      last.id,
    ]);

    // The published-content cache never holds it.
    expect((await f.content.chapter(draft.slug)).kind).toBe("missing");
  });

  it("reads a published chapter too, as the reader shows it", async () => {
    const chapter = await createChapter(f.store, { title: "Already out" });
    const preview = await readChapterPreview(db(), chapter.slug);
    expect(preview?.published).toBe(true);
    const published = await f.content.chapter(chapter.slug);
    expect(published.kind === "chapter" && published.page.chapter.id).toBe(chapter.id);
  });

  it("finds nothing for an unknown slug, nor for a former one", async () => {
    expect(await readChapterPreview(db(), "no-such-chapter")).toBeNull();
    const renamed = await createChapter(f.store, { title: "Old name", published: false });
    await updateChapter(f.store, renamed.id, { revision: renamed.revision, title: "New name" });
    expect(await readChapterPreview(db(), "old-name")).toBeNull();
    expect((await readChapterPreview(db(), "new-name"))?.page.chapter.title).toBe("New name");
  });
});
