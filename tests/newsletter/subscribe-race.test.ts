import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../../server/db/connection.ts";
import { seedNewsletterSettings } from "../../server/newsletter/settings.ts";
import { confirmSubscription, subscribe, unsubscribeWithToken } from "../../server/newsletter/subscribers.ts";
import { unsubscribeToken } from "../../server/newsletter/tokens.ts";
import { type MigratedDatabase, migratedDatabase, TEST_DIALECTS } from "../helpers/databases.ts";
import { mailConfig } from "../mail/helpers.ts";

/**
 * Two subscribe requests for one address that already has a row, at the same moment (a
 * double click on the form, two instances): one confirmation email, whose link works.
 * Each email carries a new token and replaces the row's; a second email sent by the
 * losing request would leave the first one's link dead.
 */

const SECRET = "test-secret-0123456789abcdef0123456789";
const ROUNDS = 5;

describe.each(TEST_DIALECTS)("concurrent subscriptions of one address on %s", (dialect) => {
  let database: MigratedDatabase;
  // PostgreSQL: a second pool, as another server instance has. SQLite has one
  // connection, which its transactions take in turn.
  let second: DatabaseHandle | undefined;
  const db = () => database.handle.db;
  const secondDb = () => (second ?? database.handle).db;
  const deps = { config: mailConfig(), secret: SECRET };

  beforeAll(async () => {
    database = await migratedDatabase(dialect);
    if (dialect === "postgres") second = openDatabase(database.testDb.config);
    await seedNewsletterSettings(db());
  });
  afterAll(async () => {
    await second?.close();
    await database?.close();
  });
  beforeEach(async () => {
    await db().deleteFrom("email_outbox").execute();
    await db().deleteFrom("newsletter_subscribers").execute();
  });

  const confirmationEmails = (email: string) =>
    db()
      .selectFrom("email_outbox")
      .select("text_body")
      .where("kind", "=", "newsletter-confirmation")
      .where("to_address", "=", email)
      .execute();
  const tokenIn = (text: string) => /\/newsletter\/confirm\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1] ?? "";

  it("an unsubscribed address subscribing twice at once gets one confirmation email, and its link works", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const email = `again${round}@example.test`;
      await subscribe(db(), deps, { email, source: "form", ip: "198.51.100.1" });
      const { id } = await db()
        .selectFrom("newsletter_subscribers")
        .select("id")
        .where("email", "=", email)
        .executeTakeFirstOrThrow();
      expect(await unsubscribeWithToken(db(), SECRET, unsubscribeToken(SECRET, id))).toEqual({ success: true });
      await db().deleteFrom("email_outbox").execute();

      const outcomes = await Promise.all([
        subscribe(db(), deps, { email, source: "form", ip: "198.51.100.1" }),
        subscribe(secondDb(), deps, { email, source: "form", ip: "198.51.100.1" }),
      ]);
      expect(outcomes.sort()).toEqual(["pending", "throttled"]);
      const emails = await confirmationEmails(email);
      expect(emails).toHaveLength(1);
      expect(await confirmSubscription(db(), deps, tokenIn(emails[0]?.text_body ?? ""))).toMatchObject({
        success: true,
      });
    }
  });

  it("a pending address asking again after the resend interval, twice at once, gets one new email that works", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const email = `pending${round}@example.test`;
      const start = new Date(Date.now() - 10 * 60_000);
      await subscribe(db(), deps, { email, source: "form", ip: "198.51.100.1" }, start);
      await db().deleteFrom("email_outbox").execute();

      const outcomes = await Promise.all([
        subscribe(db(), deps, { email, source: "api", ip: "198.51.100.1" }),
        subscribe(secondDb(), deps, { email, source: "api", ip: "198.51.100.1" }),
      ]);
      expect(outcomes.sort()).toEqual(["resent", "throttled"]);
      const emails = await confirmationEmails(email);
      expect(emails).toHaveLength(1);
      expect(await confirmSubscription(db(), deps, tokenIn(emails[0]?.text_body ?? ""))).toMatchObject({
        success: true,
      });
    }
  });
});
