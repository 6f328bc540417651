import { beforeAll, describe, expect, it } from "vitest";
import { createChapter, deleteChapter } from "../../server/content/chapters.ts";
import {
  createSection,
  deleteSection,
  listSections,
  moveSection,
  reorderSections,
  type SectionRecord,
  updateSection,
} from "../../server/content/sections.ts";
import { Conflict, Invalid, NotFound } from "../../server/errors.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { ACTOR_ID, auditOf, countAudit, refusal, STALE_LIST, staleMessage, useContentFixture } from "./fixture.ts";

describe.each(TEST_DIALECTS)("chapter sections on %s", (dialect) => {
  const f = useContentFixture(dialect);
  const db = () => f.handle.db;
  let chapterId: string;

  beforeAll(async () => {
    chapterId = (await createChapter(f.store, { title: "Sections" })).id;
  });

  /** A chapter with three text sections, and its list as the editor sees it. */
  async function chapterWithThree(title: string) {
    const chapter = await createChapter(f.store, { title });
    for (const content of ["one", "two", "three"]) {
      await createSection(f.store, { chapterId: chapter.id, type: "text", content });
    }
    return { chapter, list: await listSections(db(), chapter.id) };
  }
  const contents = async (id: string) => (await listSections(db(), id)).items.map((section) => section.content);

  it("appends sections in order and keeps caption, language and alt only where the type has them", async () => {
    const heading = await createSection(f.store, {
      chapterId,
      type: "heading",
      content: "Setup",
      caption: "dropped",
      language: "dropped",
      alt: "dropped",
    });
    const code = await createSection(f.store, {
      chapterId,
      type: "code",
      content: "nmap -sV host\n",
      caption: " Scan ",
      language: "bash",
      alt: "dropped",
    });
    const image = await createSection(f.store, {
      chapterId,
      type: "image",
      content: " /media/diagram.png ",
      caption: "The network",
      language: "dropped",
      alt: "A diagram of three subnets",
    });
    expect(heading).toMatchObject({ orderIndex: 0, caption: null, language: null, alt: null, revision: 1 });
    expect(code).toMatchObject({
      orderIndex: 1,
      content: "nmap -sV host\n",
      caption: "Scan",
      language: "bash",
      alt: null,
    });
    expect(image).toMatchObject({
      orderIndex: 2,
      content: "/media/diagram.png",
      caption: "The network",
      language: null,
      alt: "A diagram of three subnets",
    });
    const list = await listSections(db(), chapterId);
    expect(list.items.map((section) => section.id)).toEqual([heading.id, code.id, image.id]);
    expect(list.revision).toBe(3);
    const page = await f.content.chapter("sections");
    if (page.kind !== "chapter") throw new Error("expected the chapter");
    expect(page.page.sections.at(-1)).toMatchObject({ type: "image", alt: "A diagram of three subnets" });

    // Turning the code section into text drops its caption and language.
    const text = await updateSection(f.store, code.id, { revision: code.revision, type: "text" });
    expect(text).toMatchObject({ type: "text", caption: null, language: null, revision: 2 });
  });

  it("refuses a section without a chapter, blank content, an unknown type, or an image that is not a web URL", async () => {
    expect((await refusal(createSection(f.store, { chapterId: "", type: "text", content: "x" }))).fields).toEqual({
      chapterId: "Please select a chapter first",
    });
    const unknownChapter = await refusal(
      createSection(f.store, { chapterId: "chapter-0-nope", type: "text", content: "x" }),
    );
    expect(unknownChapter.fields).toEqual({ chapterId: "Please select a chapter first" });
    const blank = await refusal(createSection(f.store, { chapterId, type: "text", content: " \n " }));
    expect(blank.fields).toEqual({ content: "Section content is required" });
    expect(await refusal(createSection(f.store, { chapterId, type: "video" as "text", content: "x" }))).toBeInstanceOf(
      Invalid,
    );
    for (const content of [
      "javascript:alert(1)",
      "data:image/png;base64,AAAA",
      "//evil.example/x.png",
      "ftp://x/y.png",
    ]) {
      const error = await refusal(createSection(f.store, { chapterId, type: "image", content }));
      expect(error.fields).toEqual({ content: "Enter an image URL starting with http://, https:// or /" });
    }
    // A text section may say anything; made into an image, its content must be a URL.
    const text = await createSection(f.store, { chapterId, type: "text", content: "javascript:alert(1)" });
    const toImage = await refusal(updateSection(f.store, text.id, { revision: text.revision, type: "image" }));
    expect(toImage.fields).toEqual({ content: "Enter an image URL starting with http://, https:// or /" });
    expect((await listSections(db(), chapterId)).items.find((section) => section.id === text.id)?.type).toBe("text");
    await deleteSection(f.store, text.id);
  });

  it("shows images only from this site, the media storage and IMAGE_ORIGINS: others are refused with how to fix it", async () => {
    const store = { ...f.store, imageOrigins: ["https://bastion.example", "https://images.example.org"] };
    const refused =
      "Images from https://tracker.example are not shown on this site: import the image into the media library, or ask an admin to add https://tracker.example to IMAGE_ORIGINS.";
    const outside = await refusal(
      createSection(store, { chapterId, type: "image", content: "https://tracker.example/pixel.png" }),
    );
    expect(outside.fields).toEqual({ content: refused });
    // The same host on another scheme or port is another origin.
    const otherPort = await refusal(
      createSection(store, { chapterId, type: "image", content: "https://images.example.org:8443/a.png" }),
    );
    expect(otherPort.fields?.content).toMatch(/^Images from https:\/\/images\.example\.org:8443 are not shown/);

    const sources = [
      "/media/project-images/a.png",
      "https://bastion.example/a.png",
      "https://images.example.org/b.webp",
    ];
    const allowed: SectionRecord[] = [];
    for (const content of sources) allowed.push(await createSection(store, { chapterId, type: "image", content }));
    expect(allowed.map((section) => section.content)).toEqual(sources);
    // Pointing an allowed section elsewhere is refused and leaves it as it was.
    const [, own] = allowed as [SectionRecord, SectionRecord];
    const moved = await refusal(
      updateSection(store, own.id, { revision: own.revision, content: "https://tracker.example/b.png" }),
    );
    expect(moved.fields).toEqual({ content: refused });
    expect((await listSections(db(), chapterId)).items.find((section) => section.id === own.id)?.content).toBe(
      "https://bastion.example/a.png",
    );
    for (const section of allowed) await deleteSection(store, section.id);
  });

  it("updates at the editor's revision: stale is a Conflict that changes nothing; a repeated save is not", async () => {
    const section = await createSection(f.store, { chapterId, type: "tip", content: "Patch often." });
    const saved = await updateSection(f.store, section.id, { revision: 1, content: "Patch every week." });
    expect(saved.revision).toBe(2);
    const auditBefore = await countAudit(db());

    const stale = await refusal(updateSection(f.store, section.id, { revision: 1, content: "Never patch." }));
    expect(stale).toBeInstanceOf(Conflict);
    expect(stale.message).toBe(staleMessage("section"));
    const stored = (await listSections(db(), chapterId)).items.find((item) => item.id === section.id);
    expect(stored).toMatchObject({ content: "Patch every week.", revision: 2 });

    expect(await updateSection(f.store, section.id, { revision: 1, content: "Patch every week." })).toMatchObject({
      content: "Patch every week.",
      revision: 2,
    });
    expect(await countAudit(db())).toBe(auditBefore);

    const audit = await auditOf(db(), { entityId: section.id });
    expect(audit.map((row) => [row.action, row.user_id]).sort()).toEqual([
      ["section.created", ACTOR_ID],
      ["section.updated", ACTOR_ID],
    ]);

    await deleteSection(f.store, section.id);
    const gone = await refusal(updateSection(f.store, section.id, { revision: 2, content: "x" }));
    expect(gone).toBeInstanceOf(NotFound);
    expect(gone.message).toBe("This section no longer exists.");
    expect((await refusal(deleteSection(f.store, section.id))).message).toBe("This section no longer exists.");
  });

  it("moves up and down by swapping with the neighbour; the first cannot go up nor the last down", async () => {
    const { chapter, list } = await chapterWithThree("Moves");
    const [one, two, three] = list.items.map((section) => section.id) as [string, string, string];
    const changesBefore = f.changes();
    expect(await moveSection(f.store, one, "up", list.revision)).toBe(false);
    expect(await moveSection(f.store, three, "down", list.revision)).toBe(false);
    expect(f.changes()).toBe(changesBefore);
    expect((await listSections(db(), chapter.id)).revision).toBe(list.revision);

    expect(await moveSection(f.store, three, "up", list.revision)).toBe(true);
    expect(await contents(chapter.id)).toEqual(["one", "three", "two"]);
    const afterUp = await listSections(db(), chapter.id);
    expect(afterUp.revision).toBe(list.revision + 1);
    expect(afterUp.items.map((section) => section.orderIndex)).toEqual([0, 1, 2]);

    expect(await moveSection(f.store, one, "down", afterUp.revision)).toBe(true);
    expect(await contents(chapter.id)).toEqual(["three", "one", "two"]);
    expect((await auditOf(db(), { entityId: one })).map((row) => row.action)).toContain("section.moved");

    // A move made on the list as it was before is refused, and moves nothing.
    const stale = await refusal(moveSection(f.store, two, "up", afterUp.revision));
    expect(stale).toBeInstanceOf(Conflict);
    expect(stale.message).toBe(STALE_LIST);
    expect(await contents(chapter.id)).toEqual(["three", "one", "two"]);
    expect(await refusal(moveSection(f.store, "section-0-nope", "up", 0))).toBeInstanceOf(NotFound);
    await deleteChapter(f.store, chapter.id);
  });

  it("adding or deleting a section raises the list revision, so a reorder made before it is refused", async () => {
    const { chapter, list } = await chapterWithThree("Membership");
    const added = await createSection(f.store, { chapterId: chapter.id, type: "text", content: "four" });
    const ids = list.items.map((section) => section.id);
    const stale = await refusal(reorderSections(f.store, chapter.id, [...ids].reverse(), list.revision));
    expect(stale.message).toBe(STALE_LIST);
    const current = await listSections(db(), chapter.id);
    expect(current.revision).toBe(list.revision + 1);
    await deleteSection(f.store, added.id);
    expect((await listSections(db(), chapter.id)).revision).toBe(current.revision + 1);
    await deleteChapter(f.store, chapter.id);
  });

  it("reorders by drag and drop: exactly the chapter's sections, every order_index rewritten to its position", async () => {
    const { chapter, list } = await chapterWithThree("Reorder");
    const [one, two, three] = list.items.map((section) => section.id) as [string, string, string];
    const other = await createSection(f.store, { chapterId, type: "text", content: "elsewhere" });
    const auditBefore = await countAudit(db());
    for (const wrong of [
      [one, two],
      [one, two, three, three],
      [one, two, other.id],
      [one, two, three, other.id],
    ]) {
      const error = await refusal(reorderSections(f.store, chapter.id, wrong, list.revision));
      expect(error).toBeInstanceOf(Invalid);
      expect(error.fields).toEqual({ orderedIds: "The new order must name each item of the list exactly once." });
    }
    expect(await countAudit(db())).toBe(auditBefore);
    expect((await listSections(db(), chapter.id)).revision).toBe(list.revision);

    const reordered = await reorderSections(f.store, chapter.id, [three, one, two], list.revision);
    expect(reordered.revision).toBe(list.revision + 1);
    expect(reordered.items.map((section) => [section.content, section.orderIndex])).toEqual([
      ["three", 0],
      ["one", 1],
      ["two", 2],
    ]);
    // The same drop sent twice: the list already is in that order, so the second succeeds without writing.
    const again = await reorderSections(f.store, chapter.id, [three, one, two], list.revision);
    expect(again.revision).toBe(reordered.revision);
    // Another order from the stale list is refused.
    const stale = await refusal(reorderSections(f.store, chapter.id, [two, one, three], list.revision));
    expect(stale.message).toBe(STALE_LIST);
    expect(await contents(chapter.id)).toEqual(["three", "one", "two"]);
    expect((await auditOf(db(), { action: "section.reordered" })).at(-1)?.details).toEqual({
      chapterId: chapter.id,
      order: [three, one, two],
    });
    expect(await refusal(reorderSections(f.store, "chapter-0-nope", [], 0))).toBeInstanceOf(NotFound);
    await deleteChapter(f.store, chapter.id);
  });

  it("the reader shows the sections in their new order", async () => {
    const { chapter, list } = await chapterWithThree("Reader order");
    const [one, two, three] = list.items.map((section) => section.id) as [string, string, string];
    await reorderSections(f.store, chapter.id, [two, three, one], list.revision);
    const page = await f.content.chapter("reader-order");
    if (page.kind !== "chapter") throw new Error("expected the chapter");
    expect(page.page.sections.map((section) => section.content)).toEqual(["two", "three", "one"]);
    await deleteChapter(f.store, chapter.id);
  });
});
