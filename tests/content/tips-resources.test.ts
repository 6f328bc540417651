import { describe, expect, it } from "vitest";
import { createResource, deleteResource, listResources, updateResource } from "../../server/content/resources.ts";
import { createTip, deleteTip, listTips, updateTip } from "../../server/content/tips.ts";
import { Conflict, Invalid, NotFound } from "../../server/errors.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { ACTOR_ID, auditOf, countAudit, refusal, staleMessage, useContentFixture, withoutAuditLog } from "./fixture.ts";

const UNSAFE_URLS = [
  "javascript:alert(1)",
  " JavaScript:alert(1)",
  "data:text/html,<b>x</b>",
  "vbscript:x",
  "//evil.example",
];
const LINK_MESSAGE = "Enter a URL starting with http://, https:// or /";
const HTTP_URL_MESSAGE = "Enter a URL starting with http:// or https://";

describe.each(TEST_DIALECTS)("tips and resources on %s", (dialect) => {
  const f = useContentFixture(dialect);
  const db = () => f.handle.db;

  it("tips: defaults Tenable, external, order 0; url saved as null when empty; an invalid order becomes 0", async () => {
    const tip = await createTip(f.store, { title: "Scan tuning", url: "  " });
    expect(tip).toMatchObject({
      category: "Tenable",
      type: "external",
      orderIndex: 0,
      url: null,
      description: "",
      revision: 1,
    });
    expect((await createTip(f.store, { title: "Ordered", orderIndex: "3" })).orderIndex).toBe(3);
    expect((await createTip(f.store, { title: "Badly ordered", orderIndex: "third" })).orderIndex).toBe(0);
    const withUrl = await updateTip(f.store, tip.id, { revision: 1, url: "https://docs.example/scan" });
    expect(withUrl).toMatchObject({ url: "https://docs.example/scan", revision: 2 });
    expect((await updateTip(f.store, tip.id, { revision: 2, url: "", orderIndex: -4 })).url).toBeNull();
    expect((await listTips(db())).find((item) => item.id === tip.id)).toMatchObject({ orderIndex: 0, revision: 3 });
  });

  it("tips and resources refuse javascript:, data: and other schemes in their URL", async () => {
    const tip = await createTip(f.store, { title: "Safe", url: "https://safe.example/tip" });
    const resource = await createResource(f.store, { name: "Safe", url: "https://safe.example" });
    // A tip's card opens its link in a new tab: http(s) addresses only, not even a path of this site.
    for (const url of [...UNSAFE_URLS, "/blog"]) {
      expect((await refusal(createTip(f.store, { title: "x", url }))).fields).toEqual({ url: HTTP_URL_MESSAGE });
      expect((await refusal(updateTip(f.store, tip.id, { revision: tip.revision, url }))).fields).toEqual({
        url: HTTP_URL_MESSAGE,
      });
    }
    for (const url of UNSAFE_URLS) {
      expect((await refusal(createResource(f.store, { name: "x", url }))).fields).toEqual({ url: LINK_MESSAGE });
      const update = await refusal(updateResource(f.store, resource.id, { revision: resource.revision, url }));
      expect(update.fields).toEqual({ url: LINK_MESSAGE });
    }
    expect((await listTips(db())).find((item) => item.id === tip.id)?.url).toBe("https://safe.example/tip");
    expect((await refusal(createResource(f.store, { name: "D", url: "" }))).fields).toEqual({ url: "URL is required" });
    await deleteTip(f.store, tip.id);
    await deleteResource(f.store, resource.id);
  });

  it("tips: create, update and delete each write their audit row in the same transaction", async () => {
    const tip = await createTip(f.store, { title: "Audited tip", category: "AWS" });
    await updateTip(f.store, tip.id, { revision: tip.revision, title: "Audited tip, edited", category: "AWS" });
    await deleteTip(f.store, tip.id);
    const rows = await auditOf(db(), { entityId: tip.id });
    expect(rows.map((row) => row.action).sort()).toEqual(["tip.created", "tip.deleted", "tip.updated"]);
    expect(rows.every((row) => row.user_id === ACTOR_ID && row.entity === "tip")).toBe(true);
    expect(rows.find((row) => row.action === "tip.updated")?.details).toEqual({ changed: ["title"] });

    const kept = await createTip(f.store, { title: "Kept" });
    await withoutAuditLog(db(), async () => {
      await expect(createTip(f.store, { title: "Unaudited" })).rejects.toThrow();
      await expect(deleteTip(f.store, kept.id)).rejects.toThrow();
    });
    expect((await listTips(db())).map((item) => item.title)).not.toContain("Unaudited");
    expect((await listTips(db())).map((item) => item.id)).toContain(kept.id);
  });

  it("tips: a stale update is a Conflict that changes nothing; the same save twice is not", async () => {
    const tip = await createTip(f.store, { title: "Contested tip" });
    await updateTip(f.store, tip.id, { revision: 1, title: "First", type: "coming-soon" });
    const auditBefore = await countAudit(db());
    const stale = await refusal(updateTip(f.store, tip.id, { revision: 1, title: "Second" }));
    expect(stale).toBeInstanceOf(Conflict);
    expect(stale.message).toBe(staleMessage("tip"));
    expect((await listTips(db())).find((item) => item.id === tip.id)).toMatchObject({ title: "First", revision: 2 });
    expect(await updateTip(f.store, tip.id, { revision: 1, title: "First", type: "coming-soon" })).toMatchObject({
      title: "First",
      revision: 2,
    });
    expect(await countAudit(db())).toBe(auditBefore);
    await deleteTip(f.store, tip.id);
    const gone = await refusal(updateTip(f.store, tip.id, { revision: 2, title: "x" }));
    expect(gone).toBeInstanceOf(NotFound);
    expect(gone.message).toBe("This tip no longer exists.");
  });

  it("tips: listed by category in the spec's order, then by order_index; or only those of one category", async () => {
    for (const tip of await listTips(db())) await deleteTip(f.store, tip.id);
    await createTip(f.store, { title: "Career 0", category: "Career", orderIndex: 0 });
    await createTip(f.store, { title: "AWS 2", category: "AWS", orderIndex: 2 });
    await createTip(f.store, { title: "Tenable 5", category: "Tenable", orderIndex: 5 });
    await createTip(f.store, { title: "AWS 1", category: "AWS", orderIndex: 1 });
    await createTip(f.store, { title: "Security 0", category: "Security Tips", orderIndex: 0 });
    expect((await listTips(db())).map((tip) => tip.title)).toEqual([
      "Tenable 5",
      "AWS 1",
      "AWS 2",
      "Security 0",
      "Career 0",
    ]);
    expect((await listTips(db(), { category: "AWS" })).map((tip) => tip.title)).toEqual(["AWS 1", "AWS 2"]);
    expect(await listTips(db(), { category: null })).toHaveLength(5);
  });

  it("resources: only those of one category when asked, Services included", async () => {
    const service = await createResource(f.store, { name: "Retainer", url: "https://s.example", category: "Services" });
    const tool = await createResource(f.store, { name: "Scanner", url: "https://t.example", category: "Tools" });
    expect((await listResources(db(), { category: "Services" })).map((resource) => resource.id)).toEqual([service.id]);
    expect((await listResources(db(), { category: "Tools" })).map((resource) => resource.id)).toContain(tool.id);
    expect((await listResources(db())).map((resource) => resource.id)).toEqual(
      expect.arrayContaining([service.id, tool.id]),
    );
    await deleteResource(f.store, service.id);
    await deleteResource(f.store, tool.id);
  });

  it("resources: category Learning, order_index the current count; an invalid order value becomes 0", async () => {
    for (const resource of await listResources(db())) await deleteResource(f.store, resource.id);
    const a = await createResource(f.store, { name: "A", url: "https://a.example" });
    const b = await createResource(f.store, { name: "B", url: "https://b.example", category: "News" });
    expect([a.orderIndex, b.orderIndex]).toEqual([0, 1]);
    expect(a).toMatchObject({ category: "Learning", featured: false, revision: 1 });
    const zeroed = await updateResource(f.store, b.id, { revision: 1, orderIndex: "abc" });
    expect(zeroed).toMatchObject({ orderIndex: 0, revision: 2 });
    expect((await updateResource(f.store, b.id, { revision: 2, orderIndex: "5" })).orderIndex).toBe(5);
    expect((await createResource(f.store, { name: "C", url: "https://c.example" })).orderIndex).toBe(2);
    expect((await listResources(db())).map((resource) => resource.name)).toEqual(["A", "C", "B"]);
  });

  it("resources: audited writes, stale updates refused, repeated saves accepted", async () => {
    const resource = await createResource(f.store, { name: "OWASP", url: "https://owasp.example" });
    const featured = await updateResource(f.store, resource.id, { revision: 1, featured: true });
    expect(featured).toMatchObject({ featured: true, revision: 2 });
    const stale = await refusal(updateResource(f.store, resource.id, { revision: 1, featured: false }));
    expect(stale).toBeInstanceOf(Conflict);
    expect(stale.message).toBe(staleMessage("resource"));
    expect((await listResources(db())).find((item) => item.id === resource.id)?.featured).toBe(true);
    expect((await updateResource(f.store, resource.id, { revision: 1, featured: true })).revision).toBe(2);
    await deleteResource(f.store, resource.id);
    expect((await auditOf(db(), { entityId: resource.id })).map((row) => row.action).sort()).toEqual([
      "resource.created",
      "resource.deleted",
      "resource.updated",
    ]);
    expect((await refusal(deleteResource(f.store, resource.id))).message).toBe("This resource no longer exists.");
    expect(await refusal(updateResource(f.store, resource.id, { revision: 2, name: "x" }))).toBeInstanceOf(NotFound);
    expect(await refusal(updateResource(f.store, resource.id, { revision: 2, name: " " }))).toBeInstanceOf(Invalid);
  });

  it("every write bumps the content version; a save that changes nothing does not", async () => {
    const version = f.content.version();
    const tip = await createTip(f.store, { title: "v" });
    const afterCreate = f.content.version();
    expect(afterCreate).toBeGreaterThan(version);
    await updateTip(f.store, tip.id, { revision: 1, title: "w" });
    const afterUpdate = f.content.version();
    expect(afterUpdate).toBeGreaterThan(afterCreate);
    await updateTip(f.store, tip.id, { revision: 1, title: "w" });
    expect(f.content.version()).toBe(afterUpdate);
    await deleteTip(f.store, tip.id);
    expect(f.content.version()).toBeGreaterThan(afterUpdate);
  });
});
