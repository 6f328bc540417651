import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeUserAgent } from "../../server/auth/account.ts";
import type { DatabaseHandle } from "../../server/db/connection.ts";
import { prepareDatabase } from "../../server/db/setup.ts";
import { toE164 } from "../../server/sms/e164.ts";
import { enqueueSms } from "../../server/sms/outbox.ts";
import { maskPhoneNumber } from "../../server/sms/phone-number.ts";
import { NO_SMS_PROVIDER_REASON, startSmsWorker } from "../../server/sms/worker.ts";
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from "../helpers/databases.ts";

/**
 * The texts that carry the phone factor's codes: phone numbers read as E.164, the SMS
 * outbox kept and logged without a provider, and an HTTP provider given one JSON POST
 * per message (Basic credentials from the URL), with its refusals and failures told
 * apart. Also the account page's device names (bowser).
 */

describe("phone numbers", () => {
  it("reads E.164 with the separators people type, and refuses anything else", () => {
    expect(toE164("+44 (7700) 900-123")).toBe("+447700900123");
    expect(toE164("0044 7700 900123")).toBe("+447700900123");
    expect(toE164("+1.202.555.0143")).toBe("+12025550143");
    expect(toE164("07700 900123")).toBeNull();
    expect(toE164("+0 123 456 789")).toBeNull();
    expect(toE164("+1234567")).toBeNull();
    expect(toE164("+1234567890123456")).toBeNull();
    expect(toE164("+44 7700 9OO123")).toBeNull();
    expect(maskPhoneNumber("+447700900123")).toBe("•••• 0123");
  });
});

describe("device names", () => {
  it("names the browser and the device, or says it does not know", () => {
    const chromeLinux =
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
    const safariIphone =
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
    const edgeWindows =
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0";
    expect(describeUserAgent(chromeLinux)).toBe("Chrome on Linux");
    expect(describeUserAgent(safariIphone)).toBe("Safari on iPhone");
    expect(describeUserAgent(edgeWindows)).toBe("Edge on Windows");
    expect(describeUserAgent(null)).toBe("Unknown device");
    expect(describeUserAgent("node")).toBe("Unknown device");
  });
});

interface Received {
  body: { id: string; to: string; text: string };
  authorization: string | undefined;
}

async function readJson(request: IncomingMessage) {
  let text = "";
  for await (const chunk of request) text += chunk;
  return JSON.parse(text);
}

describe.each(TEST_DIALECTS)("the SMS outbox on %s", (dialect) => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;
  let provider: Server;
  let providerUrl: string;
  const received: Received[] = [];
  /** The provider's answer, by recipient. */
  const answers = new Map<string, number>();
  const logLines: Array<Record<string, unknown>> = [];
  const logger = pino(
    { level: "info", base: undefined },
    new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split("\n")) if (line.trim()) logLines.push(JSON.parse(line));
        done();
      },
    }),
  );

  beforeAll(async () => {
    testDb = await createTestDatabase(dialect);
    database = await prepareDatabase(testDb.config, logger);
    provider = createServer(async (request, response) => {
      const body = await readJson(request);
      received.push({ body, authorization: request.headers.authorization });
      response.writeHead(answers.get(body.to) ?? 200, { "content-type": "application/json" });
      response.end(JSON.stringify({ ok: true }));
    });
    await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
    providerUrl = `http://api%20user:s3cret@127.0.0.1:${(provider.address() as AddressInfo).port}/messages`;
  });
  afterAll(async () => {
    await new Promise((resolve) => provider?.close(resolve));
    await database?.close();
    await testDb?.drop();
  });

  const expiresAt = () => new Date(Date.now() + 5 * 60_000);

  async function row(id: string) {
    return database.db
      .selectFrom("sms_outbox")
      .select(["status", "body", "attempts", "last_error", "sent_at"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
  }

  it("keeps a text in the outbox and logs it when no provider is configured", async () => {
    const id = await enqueueSms(database.db, {
      kind: "two-factor-code",
      userId: null,
      to: "+447700900001",
      body: "123456 is your Bastion sign-in code.",
      expiresAt: expiresAt(),
    });
    const worker = startSmsWorker({ db: database.db, smsUrl: undefined, logger, autoRun: false });
    expect(await worker.runOnce()).toBe(1);
    await worker.stop();
    expect(await row(id)).toMatchObject({
      status: "unsent",
      body: "123456 is your Bastion sign-in code.",
      last_error: NO_SMS_PROVIDER_REASON,
    });
    expect(
      logLines.some((line) => String(line.msg).includes('to +447700900001: "123456 is your Bastion sign-in code."')),
    ).toBe(true);
  });

  it("posts each text to the provider once, clears a sent text, and tells a refusal from a failure", async () => {
    answers.set("+447700900003", 400);
    answers.set("+447700900004", 503);
    const sms = (to: string, expires = expiresAt()) =>
      enqueueSms(database.db, {
        kind: "two-factor-code",
        userId: null,
        to,
        body: `654321 for ${to}`,
        expiresAt: expires,
      });
    const sent = await sms("+447700900002");
    const refused = await sms("+447700900003");
    const failing = await sms("+447700900004");
    const expired = await sms("+447700900005", new Date(Date.now() - 1000));

    const worker = startSmsWorker({ db: database.db, smsUrl: providerUrl, logger, autoRun: false });
    expect(await worker.runOnce()).toBe(4);
    await worker.stop();

    expect(received.map((message) => message.body.to).sort()).toEqual([
      "+447700900002",
      "+447700900003",
      "+447700900004",
    ]);
    const first = received.find((message) => message.body.to === "+447700900002");
    expect(first).toEqual({
      body: { id: sent, to: "+447700900002", text: "654321 for +447700900002" },
      authorization: `Basic ${Buffer.from("api user:s3cret").toString("base64")}`,
    });
    expect(await row(sent)).toMatchObject({ status: "sent", body: null, attempts: 1 });
    expect((await row(sent)).sent_at).toBeTruthy();
    expect(await row(refused)).toMatchObject({ status: "failed", body: null, attempts: 1 });
    expect((await row(refused)).last_error).toMatch(/^400/);
    // A server error is retried a few seconds later, text kept.
    expect(await row(failing)).toMatchObject({ status: "pending", body: "654321 for +447700900004", attempts: 1 });
    expect((await row(failing)).last_error).toContain("503");
    // A code past its expiry is not worth sending.
    expect(await row(expired)).toMatchObject({ status: "failed", body: null });
    expect((await row(expired)).last_error).toBe("the code expired before the message could be sent");
  });
});
