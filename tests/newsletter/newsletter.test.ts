import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  BOUNCE_SECRET_FAILURES,
  handleBounceWebhook,
  handleConfirm,
  handleSubscribe,
  handleUnsubscribe,
  type NewsletterServices,
} from "../../server/newsletter/api.ts";
import { recordHardBounce } from "../../server/newsletter/bounces.ts";
import { seedNewsletterSettings } from "../../server/newsletter/settings.ts";
import { confirmSubscription, subscribe } from "../../server/newsletter/subscribers.ts";
import { addSuppression, isSuppressed } from "../../server/newsletter/suppression.ts";
import {
  bounceWebhookSecret,
  hashIp,
  hashToken,
  unsubscribeToken,
  unsubscribeUrl,
  verifyUnsubscribeToken,
} from "../../server/newsletter/tokens.ts";
import { hitLimit } from "../../server/request-limits.ts";
import { type MigratedDatabase, migratedDatabase, TEST_DIALECTS } from "../helpers/databases.ts";
import { mailConfig, memoryLogger } from "../mail/helpers.ts";

const SECRET = "test-secret-0123456789abcdef0123456789";
const BASE = "https://bastion.test";

describe.each(TEST_DIALECTS)("the newsletter on %s", (dialect) => {
  let database: MigratedDatabase;
  let wakes = 0;
  const db = () => database.handle.db;
  const services = (): NewsletterServices => ({
    db: db(),
    config: mailConfig(),
    secret: SECRET,
    logger: memoryLogger().logger,
    mail: { wake: () => void wakes++ },
  });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    new Request(`${BASE}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-bastion-client-ip": "203.0.113.7", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  const outbox = () => db().selectFrom("email_outbox").selectAll().orderBy("created_at").orderBy("id").execute();
  const subscriber = (email: string) =>
    db().selectFrom("newsletter_subscribers").selectAll().where("email", "=", email).executeTakeFirst();
  const tokenFrom = (text: string) => {
    const match = /\/newsletter\/confirm\?token=([A-Za-z0-9_-]+)/.exec(text);
    if (!match) throw new Error("no confirmation link");
    return match[1] as string;
  };

  beforeAll(async () => {
    database = await migratedDatabase(dialect);
    await seedNewsletterSettings(db());
  });
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(async () => {
    for (const table of [
      "email_outbox",
      "newsletter_subscribers",
      "newsletter_suppressions",
      "newsletter_bounces",
      "request_limits",
    ] as const) {
      await db().deleteFrom(table).execute();
    }
    wakes = 0;
  });

  it("subscribes a new address: pending, consent recorded, one confirmation email, same answer", async () => {
    const response = await handleSubscribe(
      services(),
      post("/api/newsletter/subscribe", { email: " Ada@Example.TEST " }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      success: true,
      message: "Please check your email to confirm your subscription",
    });
    const row = await subscriber("ada@example.test");
    expect(row).toMatchObject({
      status: "pending",
      consent_source: "api",
      consent_ip_hash: hashIp(SECRET, "203.0.113.7"),
    });
    expect(row?.consent_ip_hash).not.toContain("203.0.113.7");
    expect(row?.consent_at).toBeTruthy();
    const emails = await outbox();
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({ kind: "newsletter-confirmation", to_address: "ada@example.test" });
    const token = tokenFrom(emails[0]?.text_body ?? "");
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    expect(row?.confirmation_token_hash).toBe(hashToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(new Date(row?.confirmation_expires_at ?? 0).getTime() - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    expect(wakes).toBe(1);
  });

  it("answers the same for pending, active and suppressed addresses; emails only as the rules say", async () => {
    const s = services();
    const t0 = new Date();
    expect(await subscribe(db(), s, { email: "p@example.test", source: "form", ip: "1.1.1.1" }, t0)).toBe("pending");
    // pending again within 5 minutes: no new email
    expect(
      await subscribe(
        db(),
        s,
        { email: "p@example.test", source: "form", ip: "1.1.1.1" },
        new Date(t0.getTime() + 60_000),
      ),
    ).toBe("throttled");
    expect(await outbox()).toHaveLength(1);
    // after 5 minutes: a new email with a new token
    expect(
      await subscribe(
        db(),
        s,
        { email: "p@example.test", source: "form", ip: "1.1.1.1" },
        new Date(t0.getTime() + 301_000),
      ),
    ).toBe("resent");
    expect(await outbox()).toHaveLength(2);

    await addSuppression(db(), { email: "s@example.test", reason: "manual" });
    const answers = [];
    for (const email of ["p@example.test", "s@example.test", "new@example.test"]) {
      const response = await handleSubscribe(s, post("/api/newsletter/subscribe", { email }));
      answers.push([response.status, await response.json()]);
    }
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    const emails = await outbox();
    expect(emails.map((email) => email.to_address).sort()).toEqual([
      "new@example.test",
      "p@example.test",
      "p@example.test",
    ]);
    expect(await subscriber("s@example.test")).toBeUndefined();
  });

  it("confirms once: active + welcome email from the settings; repeating is idempotent; expired or unknown fails", async () => {
    const s = services();
    await db()
      .updateTable("newsletter_settings")
      .set({ setting_value: "Hello reader" })
      .where("setting_key", "=", "welcome_email_subject")
      .execute();
    await handleSubscribe(s, post("/api/newsletter/subscribe", { email: "c@example.test" }));
    const token = tokenFrom((await outbox())[0]?.text_body ?? "");
    const first = await handleConfirm(s, post(`/api/newsletter/confirm?token=${token}`, {}));
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ success: true });
    expect(await subscriber("c@example.test")).toMatchObject({ status: "active" });
    const again = await handleConfirm(s, post("/api/newsletter/confirm", { token }));
    expect(await again.json()).toEqual({ success: true });
    const emails = await outbox();
    expect(emails.map((email) => email.kind)).toEqual(["newsletter-confirmation", "newsletter-welcome"]);
    expect(emails[1]).toMatchObject({ subject: "Hello reader", to_address: "c@example.test" });
    expect(emails[1]?.headers).toMatchObject({ "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });
    // active stays active on subscribe, no email
    await handleSubscribe(s, post("/api/newsletter/subscribe", { email: "c@example.test" }));
    expect(await subscriber("c@example.test")).toMatchObject({ status: "active" });
    expect(await outbox()).toHaveLength(2);

    const bad = await handleConfirm(s, post("/api/newsletter/confirm", { token: "nope" }));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ success: false, error: expect.any(String) });
    const missing = await handleConfirm(s, post("/api/newsletter/confirm", {}));
    expect(missing.status).toBe(400);

    const now = new Date();
    await subscribe(db(), s, { email: "late@example.test", source: "api", ip: "x" }, now);
    const lateToken = tokenFrom((await outbox()).at(-1)?.text_body ?? "");
    expect(await confirmSubscription(db(), s, lateToken, new Date(now.getTime() + 8 * 86_400_000))).toMatchObject({
      success: false,
    });
  });

  it("unsubscribes with the HMAC token (page link, JSON and RFC 8058 one-click); the old confirm token cannot bring it back", async () => {
    const s = services();
    await handleSubscribe(s, post("/api/newsletter/subscribe", { email: "u@example.test" }));
    const confirmToken = tokenFrom((await outbox())[0]?.text_body ?? "");
    await handleConfirm(s, post("/api/newsletter/confirm", { token: confirmToken }));
    const row = await subscriber("u@example.test");
    const id = row?.id as string;
    const token = unsubscribeToken(SECRET, id);
    expect(verifyUnsubscribeToken(SECRET, token)).toBe(id);
    expect(verifyUnsubscribeToken("other-secret", token)).toBeNull();
    // Another signature (its first character changed), and the same bytes spelled otherwise
    // (the last character's unused low bits set).
    const signatureStart = token.indexOf(".") + 1;
    const other = token[signatureStart] === "A" ? "B" : "A";
    expect(
      verifyUnsubscribeToken(SECRET, `${token.slice(0, signatureStart)}${other}${token.slice(signatureStart + 1)}`),
    ).toBeNull();
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const last = alphabet.indexOf(token.at(-1) as string);
    expect(verifyUnsubscribeToken(SECRET, `${token.slice(0, -1)}${alphabet[last ^ 1]}`)).toBeNull();
    expect(unsubscribeUrl({ publicOrigin: BASE }, SECRET, id)).toBe(
      `${BASE}/newsletter/unsubscribe?token=${encodeURIComponent(token)}`,
    );

    const bad = await handleUnsubscribe(s, post("/api/newsletter/unsubscribe", { token: "forged.token" }));
    expect(bad.status).toBe(400);
    expect((await bad.json()).success).toBe(false);
    const response = await handleUnsubscribe(s, post("/api/newsletter/unsubscribe", { token }));
    expect(await response.json()).toEqual({ success: true, message: "You have been unsubscribed." });
    expect(await subscriber("u@example.test")).toMatchObject({ status: "unsubscribed", confirmation_token_hash: null });
    expect(
      await (await handleConfirm(s, post("/api/newsletter/confirm", { token: confirmToken }))).json(),
    ).toMatchObject({ success: false });

    // resubscribe → pending again, then one-click
    await handleSubscribe(s, post("/api/newsletter/subscribe", { email: "u@example.test" }));
    expect(await subscriber("u@example.test")).toMatchObject({ status: "pending" });
    const oneClick = await handleUnsubscribe(
      s,
      new Request(`${BASE}/api/newsletter/unsubscribe?token=${encodeURIComponent(token)}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      }),
    );
    expect(oneClick.status).toBe(200);
    expect(await subscriber("u@example.test")).toMatchObject({ status: "unsubscribed" });
  });

  it("drops the honeypot silently, refuses bad input with 400 and redirects form posts", async () => {
    const s = services();
    const trap = await handleSubscribe(
      s,
      post("/api/newsletter/subscribe", { email: "bot@example.test", website: "spam.example" }),
    );
    expect(await trap.json()).toMatchObject({ success: true });
    expect(await subscriber("bot@example.test")).toBeUndefined();
    for (const body of [{ email: "not-an-email" }, {}, { email: 42 }, "{nope", "[1]"]) {
      const response = await handleSubscribe(s, post("/api/newsletter/subscribe", body));
      expect(response.status).toBe(400);
      expect((await response.json()).success).toBe(false);
    }
    const invalid = await handleSubscribe(s, post("/api/newsletter/subscribe", { email: "x@" }));
    expect((await invalid.json()).message).toBe("Please enter a valid email address");
    const form = await handleSubscribe(
      s,
      new Request(`${BASE}/api/newsletter/subscribe`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "x-bastion-client-ip": "10.0.0.1" },
        body: "email=form%40example.test&website=",
      }),
    );
    expect(form.status).toBe(303);
    expect(form.headers.get("location")).toBe("/?newsletter=success#newsletter");
    expect(await subscriber("form@example.test")).toMatchObject({ status: "pending", consent_source: "form" });
  });

  it("rate-limits per IP and per address with a 429", async () => {
    const s = services();
    for (let index = 0; index < 5; index++) {
      expect(
        (
          await handleSubscribe(
            s,
            post(
              "/api/newsletter/subscribe",
              { email: "same@example.test" },
              { "x-bastion-client-ip": `10.1.0.${index}` },
            ),
          )
        ).status,
      ).toBe(200);
    }
    const perAddress = await handleSubscribe(
      s,
      post("/api/newsletter/subscribe", { email: "same@example.test" }, { "x-bastion-client-ip": "10.1.0.99" }),
    );
    expect(perAddress.status).toBe(429);
    expect(perAddress.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await perAddress.json()).message).toMatch(/^Too many subscription attempts/);
    for (let index = 0; index < 10; index++) {
      await handleSubscribe(
        s,
        post("/api/newsletter/subscribe", { email: `ip${index}@example.test` }, { "x-bastion-client-ip": "10.2.0.1" }),
      );
    }
    const perIp = await handleSubscribe(
      s,
      post("/api/newsletter/subscribe", { email: "another@example.test" }, { "x-bastion-client-ip": "10.2.0.1" }),
    );
    expect(perIp.status).toBe(429);
  });

  it("hitLimit counts in a fixed window that starts again after it ends", async () => {
    const t0 = new Date("2026-01-01T00:00:00.000Z");
    expect(await hitLimit(db(), "k", 2, 60_000, t0)).toEqual({ allowed: true, retryAfterSeconds: 0 });
    expect((await hitLimit(db(), "k", 2, 60_000, new Date(t0.getTime() + 1000))).allowed).toBe(true);
    expect(await hitLimit(db(), "k", 2, 60_000, new Date(t0.getTime() + 30_000))).toEqual({
      allowed: false,
      retryAfterSeconds: 30,
    });
    expect((await hitLimit(db(), "k", 2, 60_000, new Date(t0.getTime() + 60_000))).allowed).toBe(true);
  });

  it("bounce webhook: secret checked, hard/complaint suppress at once, three soft bounces in 30 days too", async () => {
    const s = services();
    const secret = bounceWebhookSecret(SECRET);
    const hook = (body: unknown, header = secret) =>
      handleBounceWebhook(s, post("/api/newsletter/webhooks/bounce", body, { "x-bastion-webhook-secret": header }));
    expect((await hook({ email: "h@example.test", type: "hard" }, "wrong")).status).toBe(401);
    expect((await hook({ email: "h@example.test", type: "weird" })).status).toBe(400);
    expect((await hook({ email: "nope", type: "hard" })).status).toBe(400);

    await subscribe(db(), s, { email: "h@example.test", source: "api", ip: "x" });
    expect((await hook({ email: "h@example.test", type: "hard", reason: "mailbox unknown" })).status).toBe(200);
    expect(await subscriber("h@example.test")).toMatchObject({ status: "bounced" });
    const suppression = await db()
      .selectFrom("newsletter_suppressions")
      .selectAll()
      .where("email", "=", "h@example.test")
      .executeTakeFirst();
    expect(suppression?.reason).toBe("Hard bounce: mailbox unknown");
    await hook({ email: "c@example.test", type: "complaint", reason: "spam" });
    expect(await isSuppressed(db(), "C@example.test")).toBe(true);

    for (let index = 0; index < 2; index++) await hook({ email: "soft@example.test", type: "soft", reason: "full" });
    expect(await isSuppressed(db(), "soft@example.test")).toBe(false);
    await hook({ email: "soft@example.test", type: "soft", reason: "full" });
    expect(await isSuppressed(db(), "soft@example.test")).toBe(true);
    // suppressed: a subscribe sends nothing
    const before = (await outbox()).length;
    await handleSubscribe(s, post("/api/newsletter/subscribe", { email: "h@example.test" }));
    expect(await outbox()).toHaveLength(before);
  });

  it("bounce webhook: an address that sent too many wrong secrets is refused, even with the right one; others are not", async () => {
    const s = services();
    const secret = bounceWebhookSecret(SECRET);
    const hook = (header: string, ip: string) =>
      handleBounceWebhook(
        s,
        post(
          "/api/newsletter/webhooks/bounce",
          { email: "limit@example.test", type: "soft" },
          { "x-bastion-webhook-secret": header, "x-bastion-client-ip": ip },
        ),
      );
    for (let attempt = 0; attempt < BOUNCE_SECRET_FAILURES.limit; attempt++) {
      expect((await hook(`guess-${attempt}`, "198.51.100.9")).status).toBe(401);
    }
    const refused = await hook(secret, "198.51.100.9");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await hook(secret, "198.51.100.10")).status).toBe(200);
    // Right secrets are never counted: a provider reporting many bounces goes on.
    for (let report = 0; report < BOUNCE_SECRET_FAILURES.limit + 2; report++) {
      expect((await hook(secret, "198.51.100.11")).status).toBe(200);
    }
  });

  it("recordHardBounce (the mail worker's hook) suppresses the address", async () => {
    await recordHardBounce(db(), "Worker@example.test", "550 5.1.1 no such user");
    expect(await isSuppressed(db(), "worker@example.test")).toBe(true);
    const row = await db().selectFrom("newsletter_bounces").selectAll().executeTakeFirst();
    expect(row).toMatchObject({ email: "worker@example.test", type: "hard", reason: "550 5.1.1 no such user" });
  });
});
