import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../server/db/connection.ts";
import { newId } from "../../server/ids.ts";
import { type MigratedDatabase, migratedDatabase, TEST_DIALECTS } from "../helpers/databases.ts";

const ID_SHAPE = /^([a-z][a-z0-9_]*)-(\d{13})-([a-z0-9]{10})$/;

describe("newId(prefix)", () => {
  it("is the prefix, the current time in milliseconds and a random part", () => {
    const before = Date.now();
    const id = newId("chapter");
    const after = Date.now();
    const match = ID_SHAPE.exec(id);
    expect(match, id).not.toBeNull();
    const [, prefix, timestamp] = match!;
    expect(prefix).toBe("chapter");
    expect(Number(timestamp)).toBeGreaterThanOrEqual(before);
    expect(Number(timestamp)).toBeLessThanOrEqual(after);
  });

  it("accepts every prefix the data model uses", () => {
    for (const prefix of ["chapter", "section", "tip", "resource", "cert", "skill", "event", "sub", "media", "audit"]) {
      expect(newId(prefix)).toMatch(new RegExp(`^${prefix}-\\d{13}-[a-z0-9]{10}$`));
    }
  });

  it("never repeats, even within the same millisecond", () => {
    const ids = Array.from({ length: 20_000 }, () => newId("section"));
    expect(new Set(ids).size).toBe(ids.length);
    const perMillisecond = new Map<string, number>();
    for (const id of ids) {
      const timestamp = ID_SHAPE.exec(id)![2]!;
      perMillisecond.set(timestamp, (perMillisecond.get(timestamp) ?? 0) + 1);
    }
    // Thousands of ids a millisecond apart at most: many share one, and still differ.
    expect(Math.max(...perMillisecond.values())).toBeGreaterThan(1);
  });

  it("draws the random part from all 36 lower-case letters and digits", () => {
    const used = new Set<string>();
    for (let index = 0; index < 2_000; index++)
      for (const character of ID_SHAPE.exec(newId("tip"))![3]!) used.add(character);
    expect([...used].sort().join("")).toBe("0123456789abcdefghijklmnopqrstuvwxyz");
  });

  it("refuses a prefix that would make the id ambiguous or unsafe", () => {
    for (const prefix of ["", "Chapter", "1chapter", "chap-ter", "chapter ", "../x", "chapter/"]) {
      expect(() => newId(prefix), JSON.stringify(prefix)).toThrow(`Invalid id prefix: ${prefix}`);
    }
  });
});

describe.each(TEST_DIALECTS)("ids as primary keys on %s", (dialect) => {
  let migrated: MigratedDatabase;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    migrated = await migratedDatabase(dialect);
    handle = migrated.handle;
  });

  afterAll(async () => {
    await migrated?.close();
  });

  it("stores ids made in a burst as distinct rows and reads them back unchanged", async () => {
    const rows = Array.from({ length: 500 }, (_, index) => ({
      id: newId("skill"),
      name: `Skill ${index}`,
      order_index: index,
    }));
    await handle.db.insertInto("skills").values(rows).execute();
    const stored = await handle.db.selectFrom("skills").select("id").orderBy("order_index").execute();
    expect(stored.map((row) => row.id)).toEqual(rows.map((row) => row.id));
  });
});
