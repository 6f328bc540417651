import { describe, expect, it } from "vitest";
import {
  createCertification,
  createSkill,
  createTimelineEvent,
  deleteSkill,
  listCertifications,
  listTimelineEvents,
  moveCertificationUp,
  moveTimelineEventUp,
  updateSkill,
} from "../../server/content/profile.ts";
import { createResource, listResources, updateResource } from "../../server/content/resources.ts";
import { createTip, deleteTip, updateTip } from "../../server/content/tips.ts";
import { Invalid } from "../../server/errors.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { useContentFixture } from "./fixture.ts";

describe.each(TEST_DIALECTS)("tips, resources, certifications, skills and timeline on %s", (dialect) => {
  const f = useContentFixture(dialect);

  it("tips: defaults Tenable/external/0, url saved as null when empty, unsafe urls refused", async () => {
    const tip = await createTip(f.store, { title: "Scan tuning", url: "  " });
    expect(tip).toMatchObject({ category: "Tenable", type: "external", orderIndex: 0, url: null, description: "" });
    const updated = await updateTip(f.store, tip.id, { url: "https://docs.example/scan" });
    expect(updated.url).toBe("https://docs.example/scan");
    expect((await updateTip(f.store, tip.id, { url: "" })).url).toBeNull();
    const bad = await createTip(f.store, { title: "x", url: "javascript:alert(1)" }).catch((e) => e);
    expect(bad).toBeInstanceOf(Invalid);
    expect(Object.keys(bad.fields)).toEqual(["url"]);
    await deleteTip(f.store, tip.id);
  });

  it("resources: order_index is the current count; an invalid order value becomes 0", async () => {
    const a = await createResource(f.store, { name: "A", url: "https://a.example" });
    const b = await createResource(f.store, { name: "B", url: "https://b.example", category: "News" });
    expect([a.orderIndex, b.orderIndex]).toEqual([0, 1]);
    expect(a).toMatchObject({ category: "Learning", featured: false });
    expect((await updateResource(f.store, b.id, { orderIndex: "abc" })).orderIndex).toBe(0);
    expect((await updateResource(f.store, b.id, { orderIndex: "5" })).orderIndex).toBe(5);
    expect((await createResource(f.store, { name: "C", url: "https://c.example" })).orderIndex).toBe(2);
    expect((await listResources(f.handle.db)).map((r) => r.name)).toEqual(["A", "C", "B"]);
    const missingUrl = await createResource(f.store, { name: "D", url: "" }).catch((e) => e);
    expect(missingUrl.fields.url).toBe("URL is required");
  });

  it("certifications and timeline events go last and move up by rewriting every position", async () => {
    const one = await createCertification(f.store, { name: "One" });
    const two = await createCertification(f.store, { name: "Two" });
    const three = await createCertification(f.store, { name: "Three", status: "planned" });
    expect([one.orderIndex, two.orderIndex, three.orderIndex]).toEqual([0, 1, 2]);
    expect(one.id).toMatch(/^cert-\d+-/);
    expect(await moveCertificationUp(f.store, one.id)).toBe(false);
    expect(await moveCertificationUp(f.store, three.id)).toBe(true);
    expect((await listCertifications(f.handle.db)).map((c) => [c.name, c.orderIndex])).toEqual([
      ["One", 0],
      ["Three", 1],
      ["Two", 2],
    ]);

    const first = await createTimelineEvent(f.store, { date: "2022-06", title: "Intern", category: "career" });
    const second = await createTimelineEvent(f.store, { date: "2023-05", title: "Engineer" });
    expect(first.id).toMatch(/^event-/);
    expect(second).toMatchObject({ category: "project", orderIndex: 1 });
    await moveTimelineEventUp(f.store, second.id);
    expect((await listTimelineEvents(f.handle.db)).map((e) => e.title)).toEqual(["Engineer", "Intern"]);
  });

  it("skills: level 0..100 (default 50), category optional", async () => {
    const skill = await createSkill(f.store, { name: "Python" });
    expect(skill).toMatchObject({ level: 50, category: null, orderIndex: 0 });
    expect((await updateSkill(f.store, skill.id, { level: 100, category: "Languages" })).level).toBe(100);
    for (const level of [-5, 101, 42.5]) {
      const error = await updateSkill(f.store, skill.id, { level }).catch((e) => e);
      expect(error).toBeInstanceOf(Invalid);
      expect(Object.keys(error.fields)).toEqual(["level"]);
    }
    await deleteSkill(f.store, skill.id);
  });

  it("every write bumps the content version", async () => {
    const version = f.content.version();
    const tip = await createTip(f.store, { title: "v" });
    const afterCreate = f.content.version();
    expect(afterCreate).toBeGreaterThan(version);
    await deleteTip(f.store, tip.id);
    expect(f.content.version()).toBeGreaterThan(afterCreate);
  });
});
