import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { recordBounce } from "../../server/newsletter/bounces.ts";
import { type MigratedDatabase, migratedDatabase, TEST_DIALECTS } from "../helpers/databases.ts";

/** The reason a bounce leaves on the suppression list, which the admin reads. */
describe.each(TEST_DIALECTS)("the suppression reason of a bounce on %s", (dialect) => {
  let database: MigratedDatabase;
  const db = () => database.handle.db;
  const reasonFor = async (email: string) =>
    (
      await db()
        .selectFrom("newsletter_suppressions")
        .select("reason")
        .where("email", "=", email)
        .executeTakeFirstOrThrow()
    ).reason;

  beforeAll(async () => {
    database = await migratedDatabase(dialect);
  });
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(async () => {
    await db().deleteFrom("newsletter_suppressions").execute();
    await db().deleteFrom("newsletter_bounces").execute();
  });

  it("names the kind of bounce, followed by the provider's reason when there is one", async () => {
    await recordBounce(db(), { email: "hard@example.test", type: "hard", reason: "550 mailbox unknown" });
    expect(await reasonFor("hard@example.test")).toBe("Hard bounce: 550 mailbox unknown");
    await recordBounce(db(), { email: "spam@example.test", type: "complaint", reason: "abuse" });
    expect(await reasonFor("spam@example.test")).toBe("Complaint: abuse");
  });

  it("names the kind alone, without a dangling colon, when the report gave no reason", async () => {
    await recordBounce(db(), { email: "hard@example.test", type: "hard" });
    expect(await reasonFor("hard@example.test")).toBe("Hard bounce");
    await recordBounce(db(), { email: "spam@example.test", type: "complaint", reason: "   " });
    expect(await reasonFor("spam@example.test")).toBe("Complaint");
    for (let bounce = 0; bounce < 3; bounce++) {
      await recordBounce(db(), { email: "full@example.test", type: "soft", reason: "" });
    }
    expect(await reasonFor("full@example.test")).toBe("Repeated soft bounces");
  });
});
