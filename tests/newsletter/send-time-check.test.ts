import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOT_SUBSCRIBED_REASON, refuseUnwantedRecipients } from "../../server/newsletter/send-time-check.ts";
import { addSuppression } from "../../server/newsletter/suppression.ts";
import { type MigratedDatabase, migratedDatabase, TEST_DIALECTS } from "../helpers/databases.ts";

/**
 * The mail worker's last check before a send: mail queued for a subscriber who has
 * since unsubscribed, been deleted or been suppressed is not sent; other mail goes.
 */
describe.each(TEST_DIALECTS)("the send-time check on %s", (dialect) => {
  let database: MigratedDatabase;
  const db = () => database.handle.db;

  beforeAll(async () => {
    database = await migratedDatabase(dialect);
    await db()
      .insertInto("newsletter_subscribers")
      .values([
        { id: "sub-active", email: "active@example.test", status: "active", subscribed_at: "2026-01-01T00:00:00.000Z" },
        {
          id: "sub-left",
          email: "left@example.test",
          status: "unsubscribed",
          subscribed_at: "2026-01-01T00:00:00.000Z",
        },
        { id: "sub-new", email: "new@example.test", status: "pending", subscribed_at: "2026-01-01T00:00:00.000Z" },
        { id: "sub-hushed", email: "hushed@example.test", status: "active", subscribed_at: "2026-01-01T00:00:00.000Z" },
      ])
      .execute();
    await addSuppression(db(), { email: "hushed@example.test", reason: "Complaint" });
  });
  afterAll(async () => {
    await database?.close();
  });

  it("refuses a subscriber's mail once its subscriber is gone, and any mail to a suppressed address", async () => {
    const email = (id: string, kind: string, to: string) => ({ id, kind, to_address: to });
    const refusals = await refuseUnwantedRecipients(db(), [
      email("to-active", "notification", "Active@example.test"),
      email("to-left", "notification", "left@example.test"),
      email("to-deleted", "newsletter-welcome", "deleted@example.test"),
      email("confirmation", "newsletter-confirmation", "new@example.test"),
      email("reset", "password-reset", "someone@example.test"),
      email("to-hushed", "notification", "hushed@example.test"),
    ]);
    expect(Object.fromEntries(refusals)).toEqual({
      "to-left": NOT_SUBSCRIBED_REASON,
      "to-deleted": NOT_SUBSCRIBED_REASON,
      "to-hushed": "Not sent: the address is on the suppression list",
    });
  });
});
