import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "../../server/logger.ts";
import { enqueueSms } from "../../server/sms/outbox.ts";
import { type SmsWorker, type SmsWorkerOptions, startSmsWorker } from "../../server/sms/worker.ts";
import { type MigratedDatabase, migratedDatabase, TEST_DIALECTS } from "../helpers/databases.ts";
import { memoryLogger, sleep } from "../mail/helpers.ts";

const logger = createLogger({ level: "silent" });

/** A provider on 127.0.0.1 that answers each POST after `delayMs` with `status` (and `location`). */
interface Provider {
  url: string;
  received: Array<{ method: string; id?: string }>;
  delayMs: number;
  status: number;
  location?: string;
  close(): Promise<void>;
}

async function startProvider(): Promise<Provider> {
  let server: Server | undefined;
  const provider: Provider = {
    url: "",
    received: [],
    delayMs: 0,
    status: 202,
    close: () =>
      new Promise<void>((resolve) => {
        server?.closeAllConnections();
        server?.close(() => resolve());
      }),
  };
  server = createServer((request, response) => {
    let text = "";
    request.on("data", (chunk) => (text += chunk));
    request.on("end", () => {
      provider.received.push({ method: request.method ?? "", id: text ? JSON.parse(text).id : undefined });
      setTimeout(() => {
        const headers = provider.location ? { location: provider.location } : undefined;
        response.writeHead(provider.status, headers).end("{}");
      }, provider.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  provider.url = `http://user:key@127.0.0.1:${(server.address() as AddressInfo).port}/messages`;
  return provider;
}

describe.each(TEST_DIALECTS)("the SMS worker on %s", (dialect) => {
  let database: MigratedDatabase;
  let provider: Provider;
  const workers: SmsWorker[] = [];
  const db = () => database.handle.db;

  function worker(options: Partial<SmsWorkerOptions> = {}): SmsWorker {
    const started = startSmsWorker({ db: db(), smsUrl: provider.url, logger, autoRun: false, ...options });
    workers.push(started);
    return started;
  }

  async function enqueue(count: number, expiresAt = new Date(Date.now() + 5 * 60_000)): Promise<string[]> {
    const ids: string[] = [];
    for (let index = 0; index < count; index++) {
      ids.push(
        await enqueueSms(db(), {
          kind: "two-factor-code",
          userId: null,
          to: `+4477009001${String(index).padStart(2, "0")}`,
          body: `12345${index} is your code`,
          expiresAt,
        }),
      );
    }
    return ids;
  }

  const rows = () =>
    db().selectFrom("sms_outbox").select(["id", "status", "attempts", "last_error", "body"]).orderBy("id").execute();

  beforeAll(async () => {
    database = await migratedDatabase(dialect);
    provider = await startProvider();
  });
  afterAll(async () => {
    await provider?.close();
    await database?.close();
  });
  beforeEach(async () => {
    provider.received.length = 0;
    provider.delayMs = 0;
    provider.status = 202;
    provider.location = undefined;
    await db().deleteFrom("sms_outbox").execute();
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((started) => started.stop()));
  });

  it("sends each message once when a slow provider keeps one worker busy past a lease and another polls", async () => {
    // Each send takes 200 ms and a claim holds 1 s: eight messages take one worker 1.6 s.
    provider.delayMs = 200;
    const ids = await enqueue(8);
    const one = worker({ leaseMs: 1_000 });
    const two = worker({ leaseMs: 1_000 });
    const first = one.runOnce();
    await sleep(1_100);
    const [a, b] = await Promise.all([first, two.runOnce()]);
    expect(a + b).toBe(8);
    expect(provider.received.map((message) => message.id).sort()).toEqual([...ids].sort());
    expect((await rows()).every((row) => row.status === "sent" && row.attempts === 1)).toBe(true);
  });

  it("stop() waits for the send under way and leaves the other messages queued, their attempts uncounted", async () => {
    provider.delayMs = 300;
    await enqueue(4);
    const sms = worker();
    const run = sms.runOnce();
    while (provider.received.length === 0) await sleep(10);
    const stopping = Date.now();
    await sms.stop();
    expect(Date.now() - stopping).toBeLessThan(600);
    expect(await run).toBe(1);
    expect(provider.received).toHaveLength(1);
    const after = await rows();
    expect(after.filter((row) => row.status === "sent")).toHaveLength(1);
    expect(after.filter((row) => row.status === "pending" && row.attempts === 0 && row.body)).toHaveLength(3);
  });

  it("fails a message the provider answers with a redirect instead of following it as a GET", async () => {
    provider.status = 301;
    provider.location = "https://sms-provider.example/messages";
    const [id] = await enqueue(1);
    expect(await worker().runOnce()).toBe(1);
    expect(provider.received).toEqual([{ method: "POST", id }]);
    const [row] = await rows();
    expect(row).toMatchObject({ status: "failed", body: null });
    expect(row?.last_error).toBe("301 (redirects to https://sms-provider.example/messages) {}");
  });

  it("says why the provider could not be reached, and retries", async () => {
    const gone = await startProvider();
    await gone.close();
    await enqueue(1);
    expect(await worker({ smsUrl: gone.url }).runOnce()).toBe(1);
    const [row] = await rows();
    expect(row).toMatchObject({ status: "pending", attempts: 1 });
    expect(row?.last_error).toMatch(/^The SMS provider could not be reached: fetch failed: connect ECONNREFUSED/);
  });

  it("logs a message not sent because its code expired first", async () => {
    const { logger: memory, lines } = memoryLogger();
    const [id] = await enqueue(1, new Date(Date.now() - 1_000));
    expect(await worker({ logger: memory }).runOnce()).toBe(1);
    expect(provider.received).toHaveLength(0);
    expect(lines()).toContainEqual(
      expect.objectContaining({
        level: 40,
        smsId: id,
        msg: "SMS not sent: the code expired before the message could be sent",
      }),
    );
  });
});
