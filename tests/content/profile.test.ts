import { describe, expect, it } from "vitest";
import {
  createCertification,
  createSkill,
  createTimelineEvent,
  deleteCertification,
  deleteSkill,
  deleteTimelineEvent,
  listCertifications,
  listSkills,
  listTimelineEvents,
  moveCertificationUp,
  moveSkillUp,
  moveTimelineEventUp,
  reorderCertifications,
  reorderSkills,
  reorderTimelineEvents,
  updateCertification,
  updateSkill,
  updateTimelineEvent,
} from "../../server/content/profile.ts";
import { Conflict, Invalid, NotFound } from "../../server/errors.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { ACTOR_ID, auditOf, countAudit, refusal, STALE_LIST, staleMessage, useContentFixture } from "./fixture.ts";

describe.each(TEST_DIALECTS)("certifications, skills and timeline events on %s", (dialect) => {
  const f = useContentFixture(dialect);
  const db = () => f.handle.db;

  it("new items go last with the spec's defaults and a prefixed id; each addition raises the list revision", async () => {
    const empty = await listCertifications(db());
    expect(empty).toEqual({ items: [], revision: 0 });
    const one = await createCertification(f.store, { name: "CISSP" });
    const two = await createCertification(f.store, { name: "OSCP", status: "planned" });
    expect(one).toMatchObject({ status: "completed", orderIndex: 0, revision: 1, organization: "" });
    expect(two).toMatchObject({ status: "planned", orderIndex: 1 });
    expect(one.id).toMatch(/^cert-\d+-/);
    expect((await listCertifications(db())).revision).toBe(2);

    const event = await createTimelineEvent(f.store, { date: "2023-05", title: "Engineer" });
    expect(event).toMatchObject({ category: "project", orderIndex: 0 });
    expect(event.id).toMatch(/^event-\d+-/);

    const skill = await createSkill(f.store, { name: "Python" });
    expect(skill).toMatchObject({ level: 50, category: null, orderIndex: 0 });
    await deleteSkill(f.store, skill.id);
    expect((await listSkills(db())).revision).toBe(2);
    for (const item of [one, two]) await deleteCertification(f.store, item.id);
    await deleteTimelineEvent(f.store, event.id);
  });

  it("skills: level 0 to 100 in steps of 5", async () => {
    const skill = await createSkill(f.store, { name: "AWS", level: 85 });
    expect((await updateSkill(f.store, skill.id, { revision: 1, level: 100, category: "Cloud" })).level).toBe(100);
    for (const level of [-5, 105, 42, 42.5]) {
      const error = await refusal(updateSkill(f.store, skill.id, { revision: 2, level }));
      expect(error).toBeInstanceOf(Invalid);
      expect(Object.keys(error.fields ?? {})).toEqual(["level"]);
    }
    expect((await refusal(createSkill(f.store, { name: "Odd", level: 33 }))).fields).toEqual({
      level: "Level must be a multiple of 5",
    });
    expect((await listSkills(db())).items.find((item) => item.id === skill.id)).toMatchObject({
      level: 100,
      revision: 2,
    });
    await deleteSkill(f.store, skill.id);
  });

  it("updates at the editor's revision: a stale one is a Conflict naming the item; a repeated save is not", async () => {
    const cert = await createCertification(f.store, { name: "Security+" });
    const skill = await createSkill(f.store, { name: "Go" });
    const event = await createTimelineEvent(f.store, { date: "2022-06", title: "Intern", category: "career" });
    await updateCertification(f.store, cert.id, { revision: 1, date: "2021" });
    await updateSkill(f.store, skill.id, { revision: 1, level: 70 });
    await updateTimelineEvent(f.store, event.id, { revision: 1, description: "Summer internship" });
    const auditBefore = await countAudit(db());

    const stale = [
      [await refusal(updateCertification(f.store, cert.id, { revision: 1, date: "2020" })), "certification"],
      [await refusal(updateSkill(f.store, skill.id, { revision: 1, level: 60 })), "skill"],
      [await refusal(updateTimelineEvent(f.store, event.id, { revision: 1, title: "Other" })), "timeline event"],
    ] as const;
    for (const [error, thing] of stale) {
      expect(error).toBeInstanceOf(Conflict);
      expect(error.message).toBe(staleMessage(thing));
    }
    expect((await listCertifications(db())).items.find((item) => item.id === cert.id)).toMatchObject({
      date: "2021",
      revision: 2,
    });
    expect((await listSkills(db())).items.find((item) => item.id === skill.id)?.level).toBe(70);

    expect((await updateCertification(f.store, cert.id, { revision: 1, date: "2021" })).revision).toBe(2);
    expect((await updateSkill(f.store, skill.id, { revision: 1, level: 70 })).revision).toBe(2);
    expect(await countAudit(db())).toBe(auditBefore);

    const audit = await auditOf(db(), { entityId: event.id });
    expect(audit.map((row) => [row.action, row.entity, row.user_id]).sort()).toEqual([
      ["timeline-event.created", "timeline-event", ACTOR_ID],
      ["timeline-event.updated", "timeline-event", ACTOR_ID],
    ]);

    await deleteTimelineEvent(f.store, event.id);
    const gone = await refusal(updateTimelineEvent(f.store, event.id, { revision: 2, title: "x" }));
    expect(gone).toBeInstanceOf(NotFound);
    expect(gone.message).toBe("This timeline event no longer exists.");
    expect((await refusal(deleteTimelineEvent(f.store, event.id))).message).toBe(
      "This timeline event no longer exists.",
    );
    await deleteCertification(f.store, cert.id);
    await deleteSkill(f.store, skill.id);
  });

  it("move up swaps with the previous item and rewrites every order_index; the first cannot move up", async () => {
    const names = ["One", "Two", "Three"];
    for (const name of names) await createCertification(f.store, { name });
    // Gaps left by earlier deletions are closed by the rewrite.
    await db().updateTable("certifications").set({ order_index: 10 }).where("name", "=", "Three").execute();
    const list = await listCertifications(db());
    const [one, , three] = list.items;
    const changesBefore = f.changes();
    expect(await moveCertificationUp(f.store, one!.id, list.revision)).toBe(false);
    expect(f.changes()).toBe(changesBefore);
    expect((await listCertifications(db())).revision).toBe(list.revision);

    expect(await moveCertificationUp(f.store, three!.id, list.revision)).toBe(true);
    const moved = await listCertifications(db());
    expect(moved.items.map((item) => [item.name, item.orderIndex])).toEqual([
      ["One", 0],
      ["Three", 1],
      ["Two", 2],
    ]);
    expect(moved.revision).toBe(list.revision + 1);
    expect((await auditOf(db(), { entityId: three!.id })).map((row) => row.action)).toContain("certification.moved");

    const stale = await refusal(moveCertificationUp(f.store, three!.id, list.revision));
    expect(stale).toBeInstanceOf(Conflict);
    expect(stale.message).toBe(STALE_LIST);
    expect((await listCertifications(db())).items.map((item) => item.name)).toEqual(["One", "Three", "Two"]);
    expect(await refusal(moveCertificationUp(f.store, "cert-0-nope", moved.revision))).toBeInstanceOf(NotFound);
    for (const item of moved.items) await deleteCertification(f.store, item.id);
  });

  it("skills and timeline events move up the same way", async () => {
    await createSkill(f.store, { name: "A" });
    const b = await createSkill(f.store, { name: "B" });
    const skills = await listSkills(db());
    expect(await moveSkillUp(f.store, b.id, skills.revision)).toBe(true);
    expect((await listSkills(db())).items.map((item) => item.name)).toEqual(["B", "A"]);

    await createTimelineEvent(f.store, { date: "2022", title: "Earlier" });
    const later = await createTimelineEvent(f.store, { date: "2024", title: "Later" });
    const events = await listTimelineEvents(db());
    expect(await moveTimelineEventUp(f.store, later.id, events.revision)).toBe(true);
    expect((await listTimelineEvents(db())).items.map((item) => item.title)).toEqual(["Later", "Earlier"]);
    expect((await refusal(moveTimelineEventUp(f.store, later.id, events.revision))).message).toBe(STALE_LIST);
  });

  it("reorders by drag and drop: exactly the list's items, positions rewritten, stale lists refused", async () => {
    const list = await listSkills(db());
    const ids = list.items.map((item) => item.id);
    const extra = await createSkill(f.store, { name: "C" });
    // The list gained an item since the editor read it.
    expect((await refusal(reorderSkills(f.store, [...ids].reverse(), list.revision))).message).toBe(STALE_LIST);

    const current = await listSkills(db());
    const all = current.items.map((item) => item.id);
    for (const wrong of [all.slice(1), [...all, all[0]!], [...all.slice(1), "skill-0-nope"]]) {
      const error = await refusal(reorderSkills(f.store, wrong, current.revision));
      expect(error).toBeInstanceOf(Invalid);
      expect(Object.keys(error.fields ?? {})).toEqual(["orderedIds"]);
    }
    const wanted = [extra.id, ...ids];
    const reordered = await reorderSkills(f.store, wanted, current.revision);
    expect(reordered.items.map((item) => item.id)).toEqual(wanted);
    expect(reordered.items.map((item) => item.orderIndex)).toEqual([0, 1, 2]);
    expect(reordered.revision).toBe(current.revision + 1);
    expect((await reorderSkills(f.store, wanted, current.revision)).revision).toBe(reordered.revision);

    const certs = await listCertifications(db());
    expect(await reorderCertifications(f.store, [], certs.revision)).toMatchObject({ items: [] });
    const events = await listTimelineEvents(db());
    const reversed = events.items.map((item) => item.id).reverse();
    expect((await reorderTimelineEvents(f.store, reversed, events.revision)).items.map((item) => item.id)).toEqual(
      reversed,
    );
    expect((await auditOf(db(), { action: "skill.reordered" })).map((row) => row.details)).toEqual([{ order: wanted }]);
  });
});
