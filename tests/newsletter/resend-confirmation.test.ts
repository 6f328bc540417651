import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { seedNewsletterSettings } from "../../server/newsletter/settings.ts";
import { resendConfirmation, subscribe } from "../../server/newsletter/subscribers.ts";
import { addSuppression } from "../../server/newsletter/suppression.ts";
import { type MigratedDatabase, migratedDatabase, TEST_DIALECTS } from "../helpers/databases.ts";
import { mailConfig } from "../mail/helpers.ts";

/** The admin's "Resend" of a confirmation email (/admin/newsletter). */
describe.each(TEST_DIALECTS)("resending a confirmation email on %s", (dialect) => {
  let database: MigratedDatabase;
  const db = () => database.handle.db;
  const deps = { config: mailConfig(), secret: "test-secret-0123456789abcdef0123456789" };
  const row = (email: string) =>
    db()
      .selectFrom("newsletter_subscribers")
      .select(["id", "status", "confirmation_token_hash"])
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
  const confirmations = async (email: string) =>
    (
      await db()
        .selectFrom("email_outbox")
        .select("id")
        .where("kind", "=", "newsletter-confirmation")
        .where("to_address", "=", email)
        .execute()
    ).length;

  beforeAll(async () => {
    database = await migratedDatabase(dialect);
    await seedNewsletterSettings(db());
  });
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(async () => {
    for (const table of ["email_outbox", "newsletter_subscribers", "newsletter_suppressions"] as const) {
      await db().deleteFrom(table).execute();
    }
  });

  it("sends a pending subscriber a new email with a new link, and nobody else one", async () => {
    await subscribe(db(), deps, { email: "ada@example.test", source: "form", ip: "198.51.100.1" });
    const before = await row("ada@example.test");
    expect(await resendConfirmation(db(), deps, before.id)).toBe("sent");
    expect(await confirmations("ada@example.test")).toBe(2);
    expect((await row("ada@example.test")).confirmation_token_hash).not.toBe(before.confirmation_token_hash);

    await db().updateTable("newsletter_subscribers").set({ status: "active" }).where("id", "=", before.id).execute();
    expect(await resendConfirmation(db(), deps, before.id)).toBe("not-pending");
    expect(await resendConfirmation(db(), deps, "subscriber-gone")).toBe("not-pending");
    expect(await confirmations("ada@example.test")).toBe(2);
  });

  it("says so for a suppressed address, sends nothing and leaves its link as it was", async () => {
    await subscribe(db(), deps, { email: "eve@example.test", source: "form", ip: "198.51.100.1" });
    const before = await row("eve@example.test");
    await addSuppression(db(), { email: "eve@example.test", reason: "Added by an administrator" });
    expect(await resendConfirmation(db(), deps, before.id)).toBe("suppressed");
    expect(await confirmations("eve@example.test")).toBe(1);
    expect(await row("eve@example.test")).toEqual(before);
  });
});
