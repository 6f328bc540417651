import { describe, expect, it } from "vitest";
import {
  createChapter,
  deleteChapter,
  getChapter,
  listChapters,
  updateChapter,
} from "../../server/content/chapters.ts";
import { getListRevision } from "../../server/content/list-revisions.ts";
import { createSection, listSections } from "../../server/content/sections.ts";
import { slugify } from "../../server/content/slugs.ts";
import { Conflict, Invalid, NotFound } from "../../server/errors.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { ACTOR_ID, auditOf, countAudit, refusal, staleMessage, useContentFixture, withoutAuditLog } from "./fixture.ts";

describe("chapter slugs", () => {
  it("are lower-case ASCII words joined by hyphens", () => {
    expect(slugify("  Getting Started with Nessus!  ")).toBe("getting-started-with-nessus");
    expect(slugify("Café & Crème: Ünïcode")).toBe("cafe-and-creme-unicode");
    expect(slugify("???")).toBe("chapter");
  });
});

describe.each(TEST_DIALECTS)("chapters on %s", (dialect) => {
  const f = useContentFixture(dialect);
  const db = () => f.handle.db;

  it("numbers new chapters after the highest number and order_index, published by default; both may be given", async () => {
    const first = await createChapter(f.store, { title: "  Introduction  " });
    expect(first).toMatchObject({
      title: "Introduction",
      number: 1,
      orderIndex: 0,
      published: true,
      slug: "introduction",
      revision: 1,
    });
    expect(first.publishedAt).toMatch(/Z$/);
    await updateChapter(f.store, first.id, { revision: first.revision, number: 7, orderIndex: 4 });
    const second = await createChapter(f.store, { title: "Scanning", published: false });
    expect(second).toMatchObject({ number: 8, orderIndex: 5, published: false, publishedAt: null });
    const placed = await createChapter(f.store, { title: "Placed", number: "3", orderIndex: "" });
    expect(placed).toMatchObject({ number: 3, orderIndex: 6 });
    for (const chapter of [first, second, placed]) await deleteChapter(f.store, chapter.id);
  });

  it("refuses a blank title and an invalid number or order instead of defaulting them", async () => {
    expect((await refusal(createChapter(f.store, { title: "   " }))).fields).toEqual({
      title: "Chapter title is required",
    });
    const badOrder = await refusal(createChapter(f.store, { title: "Bad order", orderIndex: "abc" }));
    expect(badOrder).toBeInstanceOf(Invalid);
    expect(badOrder.fields).toEqual({ orderIndex: "Order must be a whole number" });
    const negative = await refusal(createChapter(f.store, { title: "Negative", number: -1 }));
    expect(negative.fields).toEqual({ number: "Chapter number must be a whole number" });
    expect((await listChapters(db())).items).toEqual([]);
  });

  it("writes an audit row with each change, as the signed-in user, and tells readers after the commit", async () => {
    const changesBefore = f.changes();
    const chapter = await createChapter(f.store, { title: "Audited" });
    const updated = await updateChapter(f.store, chapter.id, { revision: chapter.revision, title: "Audited twice" });
    await deleteChapter(f.store, chapter.id);
    const rows = await auditOf(db(), { entityId: chapter.id });
    expect(rows.map((row) => row.action).sort()).toEqual(["chapter.created", "chapter.deleted", "chapter.updated"]);
    expect(rows.every((row) => row.user_id === ACTOR_ID && row.entity === "chapter")).toBe(true);
    expect(rows.find((row) => row.action === "chapter.updated")?.details).toEqual({ changed: ["title"] });
    expect(updated.slug).toBe("audited-twice");
    expect(f.changes()).toBe(changesBefore + 3);
  });

  it("a write whose audit row cannot be written is not made at all", async () => {
    const before = await countAudit(db());
    const chapter = await createChapter(f.store, { title: "Kept" });
    await withoutAuditLog(db(), async () => {
      await expect(createChapter(f.store, { title: "Unaudited" })).rejects.toThrow();
      await expect(updateChapter(f.store, chapter.id, { revision: 1, title: "Changed unaudited" })).rejects.toThrow();
      await expect(deleteChapter(f.store, chapter.id)).rejects.toThrow();
    });
    expect((await listChapters(db())).items.map((item) => item.title)).not.toContain("Unaudited");
    expect(await getChapter(db(), chapter.id)).toMatchObject({ title: "Kept", revision: 1 });
    expect(await countAudit(db())).toBe(before + 1);
    await deleteChapter(f.store, chapter.id);
  });

  it("readers are told only once the change is committed", async () => {
    const sawTheChapter: boolean[] = [];
    const store = {
      ...f.store,
      onChange: async () => {
        // Read outside the write's transaction: it must already see the new chapter.
        const titles = (await listChapters(db())).items.map((chapter) => chapter.title);
        sawTheChapter.push(titles.includes("Committed first"));
      },
    };
    const chapter = await createChapter(store, { title: "Committed first" });
    expect(sawTheChapter).toEqual([true]);
    await deleteChapter(f.store, chapter.id);
  });

  it("an update names the revision it started from; a stale one is refused and changes nothing", async () => {
    const chapter = await createChapter(f.store, { title: "Contested" });
    const mine = await updateChapter(f.store, chapter.id, { revision: 1, title: "Mine" });
    expect(mine.revision).toBe(2);
    const auditBefore = await countAudit(db());
    const changesBefore = f.changes();

    const theirs = await refusal(updateChapter(f.store, chapter.id, { revision: 1, title: "Theirs" }));
    expect(theirs).toBeInstanceOf(Conflict);
    expect(theirs.message).toBe(staleMessage("chapter"));
    expect(theirs.status).toBe(409);
    expect(await getChapter(db(), chapter.id)).toMatchObject({ title: "Mine", slug: "mine", revision: 2 });
    expect(await countAudit(db())).toBe(auditBefore);
    expect(f.changes()).toBe(changesBefore);

    // The same save sent twice (a double-click): the second finds its values already stored.
    const again = await updateChapter(f.store, chapter.id, { revision: 1, title: "Mine" });
    expect(again).toMatchObject({ title: "Mine", revision: 2 });
    expect(await countAudit(db())).toBe(auditBefore);
    // Two identical saves at once both succeed, and only one of them writes.
    const [a, b] = await Promise.all([
      updateChapter(f.store, chapter.id, { revision: 2, title: "Both", published: false }),
      updateChapter(f.store, chapter.id, { revision: 2, title: "Both", published: false }),
    ]);
    expect([a.revision, b.revision]).toEqual([3, 3]);
    expect(await countAudit(db())).toBe(auditBefore + 1);

    await deleteChapter(f.store, chapter.id);
    const gone = await refusal(updateChapter(f.store, chapter.id, { revision: 3, title: "Late" }));
    expect(gone).toBeInstanceOf(NotFound);
    expect(gone.message).toBe("This chapter no longer exists.");
    expect((await refusal(deleteChapter(f.store, chapter.id))).message).toBe("This chapter no longer exists.");
    expect((await refusal(getChapter(db(), chapter.id))).message).toBe("This chapter no longer exists.");
  });

  it("an update without a revision is refused", async () => {
    const chapter = await createChapter(f.store, { title: "Revisionless" });
    const error = await refusal(updateChapter(f.store, chapter.id, { title: "x" } as never));
    expect(Object.keys(error.fields ?? {})).toEqual(["revision"]);
    await deleteChapter(f.store, chapter.id);
  });

  it("creating, deleting and reordering chapters raise the chapters list revision; other edits do not", async () => {
    const start = (await listChapters(db())).revision;
    const chapter = await createChapter(f.store, { title: "Listed" });
    const afterCreate = await listChapters(db());
    expect(afterCreate.revision).toBe(start + 1);
    expect(afterCreate.items.map((item) => item.id)).toContain(chapter.id);
    const renamed = await updateChapter(f.store, chapter.id, { revision: 1, title: "Listed, renamed" });
    expect((await listChapters(db())).revision).toBe(start + 1);
    await updateChapter(f.store, chapter.id, { revision: renamed.revision, orderIndex: 40 });
    expect((await listChapters(db())).revision).toBe(start + 2);
    await deleteChapter(f.store, chapter.id);
    expect((await listChapters(db())).revision).toBe(start + 3);
  });

  it("lists chapters tied on order and number in one order, which an edit does not change", async () => {
    const tied = [];
    for (const title of ["Tied A", "Tied B", "Tied C"]) {
      tied.push(await createChapter(f.store, { title, number: 1, orderIndex: 0 }));
    }
    const byId = tied.map((chapter) => chapter.id).sort();
    const listed = async () =>
      (await listChapters(db())).items.filter((chapter) => byId.includes(chapter.id)).map((chapter) => chapter.id);
    expect(await listed()).toEqual(byId);
    // PostgreSQL writes an updated row anew: without a last key, ties would then come out in another order.
    const first = tied.find((chapter) => chapter.id === byId[0]);
    if (!first) throw new Error("no chapter");
    await updateChapter(f.store, first.id, { revision: first.revision, title: "Tied A, renamed" });
    expect(await listed()).toEqual(byId);
  });

  it("deleting a chapter removes its sections and forgets their list revision", async () => {
    const chapter = await createChapter(f.store, { title: "With sections" });
    await createSection(f.store, { chapterId: chapter.id, type: "text", content: "One" });
    expect(await getListRevision(db(), `chapter_sections:${chapter.id}`)).toBe(1);
    await deleteChapter(f.store, chapter.id);
    expect(await listSections(db(), chapter.id)).toEqual({ items: [], revision: 0 });
    const rows = await db().selectFrom("list_revisions").selectAll().execute();
    expect(rows.map((row) => row.list_key)).not.toContain(`chapter_sections:${chapter.id}`);
  });

  it("keeps slugs unique with -2, -3 and redirects a renamed chapter's old slug", async () => {
    const a = await createChapter(f.store, { title: "Cloud Hardening" });
    const b = await createChapter(f.store, { title: "Cloud hardening" });
    const c = await createChapter(f.store, { title: "cloud  HARDENING!" });
    expect([a.slug, b.slug, c.slug]).toEqual(["cloud-hardening", "cloud-hardening-2", "cloud-hardening-3"]);

    let latest = await updateChapter(f.store, a.id, { revision: a.revision, title: "AWS Account Hardening" });
    expect(latest.slug).toBe("aws-account-hardening");
    expect(await f.content.chapter("cloud-hardening")).toEqual({ kind: "redirect", slug: "aws-account-hardening" });

    // The old slug stays reserved for the redirect: a new chapter with that title gets another.
    const d = await createChapter(f.store, { title: "Cloud Hardening" });
    expect(d.slug).toBe("cloud-hardening-4");

    // Same title (or one giving the same slug) keeps the slug.
    expect((await updateChapter(f.store, b.id, { revision: b.revision, title: "Cloud Hardening" })).slug).toBe(
      "cloud-hardening-2",
    );

    // Renamed twice: both former slugs redirect to the current one; renamed back, it takes its slug again.
    latest = await updateChapter(f.store, a.id, { revision: latest.revision, title: "Hardening AWS" });
    expect(await f.content.chapter("cloud-hardening")).toEqual({ kind: "redirect", slug: "hardening-aws" });
    expect(await f.content.chapter("aws-account-hardening")).toEqual({ kind: "redirect", slug: "hardening-aws" });
    const back = await updateChapter(f.store, a.id, { revision: latest.revision, title: "Cloud Hardening" });
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
    const renamed = await updateChapter(f.store, draft.id, { revision: draft.revision, title: "Still Secret" });
    expect(await f.content.chapter("secret-draft")).toEqual({ kind: "missing" });

    const published = await updateChapter(f.store, draft.id, { revision: renamed.revision, published: true });
    expect(published.publishedAt).not.toBeNull();
    expect((await f.content.chapter("still-secret")).kind).toBe("chapter");
    expect(await f.content.chapter("secret-draft")).toEqual({ kind: "redirect", slug: "still-secret" });

    const unpublished = await updateChapter(f.store, draft.id, { revision: published.revision, published: false });
    expect(unpublished.publishedAt).toBe(published.publishedAt);
    expect(await f.content.chapter("still-secret")).toEqual({ kind: "missing" });
    const again = await updateChapter(f.store, draft.id, { revision: unpublished.revision, published: true });
    expect(again.publishedAt).toBe(published.publishedAt);
    await deleteChapter(f.store, draft.id);
  });
});
