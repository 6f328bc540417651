import { describe, expect, it } from "vitest";
import { NotFound } from "../../server/errors.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { png } from "./images.ts";
import { ACTOR_ID, useLibrary } from "./library-fixture.ts";

/**
 * Two editors deleting the same image at the same moment (or one delete sent twice): both
 * find it, both remove its files, but only one removes the record, and only that one may
 * say so and write it in the audit log.
 */
describe.each(TEST_DIALECTS)("deleting one image twice at once on %s", (dialect) => {
  const f = useLibrary(dialect, "local");

  it("deletes it once: the other delete is told it is gone, and the audit log has one deletion", async () => {
    const item = await f.library.upload({ bytes: await png(600, 300) }, ACTOR_ID);
    const changes = f.changes();
    const results = await Promise.allSettled([
      f.library.remove({ id: item.id }, ACTOR_ID),
      f.library.remove({ id: item.id }, ACTOR_ID),
    ]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((result) => result.status === "rejected");
    expect(refused?.reason).toBeInstanceOf(NotFound);
    expect(f.changes()).toBe(changes + 1);
    const deletions = await f.handle.db
      .selectFrom("audit_log")
      .select("id")
      .where("entity_id", "=", item.id)
      .where("action", "=", "media.deleted")
      .execute();
    expect(deletions).toHaveLength(1);
  });
});
