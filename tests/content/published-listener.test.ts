import { createServer, type Server, type Socket, connect as tcpConnect } from "node:net";
import type { KyselyPlugin } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPublishedContent, type LivePublishedContent } from "../../server/content/published.ts";
import { createTip } from "../../server/content/tips.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";
import { memoryLogger } from "../mail/helpers.ts";
import { logger, useContentFixture } from "./fixture.ts";

/**
 * Another instance's notification of a write, lost or late: the content listener's
 * connection to PostgreSQL dropped by the network without a word
 * to this end: a NAT's or load balancer's idle timeout, a database host that restarted.
 * TCP alone notices that only after its keepalive (hours on Linux by default), and
 * every other instance's write meanwhile goes unnoticed. PostgreSQL only.
 */

interface Relay {
  url: string;
  /** Drops every relayed connection at PostgreSQL's end; the client's end hears nothing, ever. */
  silence(): void;
  close(): Promise<void>;
}

/** A TCP relay in front of PostgreSQL, standing for the network between an instance and the database. */
async function startRelay(databaseUrl: string): Promise<Relay> {
  const target = new URL(databaseUrl);
  const pairs = new Set<{ client: Socket; upstream: Socket }>();
  const server: Server = createServer((client) => {
    const upstream = tcpConnect(Number(target.port || 5432), target.hostname);
    const pair = { client, upstream };
    pairs.add(pair);
    for (const socket of [client, upstream]) {
      socket.on("error", () => {});
      socket.on("close", () => {
        if (pairs.delete(pair)) (socket === client ? upstream : client).destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("relay: no port");
  const url = new URL(databaseUrl);
  url.hostname = "127.0.0.1";
  url.port = String(address.port);
  const silenced: Socket[] = [];
  return {
    url: url.href,
    silence() {
      for (const pair of pairs) {
        pairs.delete(pair);
        pair.client.unpipe(pair.upstream);
        pair.upstream.unpipe(pair.client);
        // The client's bytes go nowhere from now on.
        pair.client.on("data", () => {});
        pair.upstream.destroy();
        silenced.push(pair.client);
      }
    },
    async close() {
      for (const socket of silenced) socket.destroy();
      for (const pair of pairs) pair.client.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const awsTips = async (instance: LivePublishedContent) =>
  ((await instance.tips()).find((block) => block.category === "AWS")?.tips ?? []).map((tip) => tip.title);

describe.skipIf(!TEST_DIALECTS.includes("postgres"))("content listener on a connection that goes silent", () => {
  const f = useContentFixture("postgres");
  let relay: Relay;
  let other: LivePublishedContent;

  beforeAll(async () => {
    relay = await startRelay(f.testDb.url);
    // Another instance whose reads go straight to the database and whose listener goes through the relay.
    other = createPublishedContent({
      db: f.handle.db,
      dialect: "postgres",
      databaseUrl: relay.url,
      logger,
      listenerCheckMs: 200,
    });
    await other.ready();
  });

  afterAll(async () => {
    await other?.close();
    await relay?.close();
  });

  it("notices the silence, reconnects and shows the writes it did not hear of", async () => {
    const before = await other.tips();
    expect(await other.tips()).toBe(before);

    relay.silence();
    await createTip(f.store, { title: "Written while unheard", category: "AWS" });
    await waitFor(async () => (await awsTips(other)).includes("Written while unheard"), 3000);

    // Listening again through a new connection: cached, and told of the next write.
    await waitFor(async () => {
      const first = await other.tips();
      return first === (await other.tips());
    }, 3000);
    await createTip(f.store, { title: "Heard again", category: "AWS" });
    await waitFor(async () => (await awsTips(other)).includes("Heard again"), 1000);
  });

  it("closes without waiting forever for a goodbye from a connection that went silent (shutdown)", async () => {
    const closing = createPublishedContent({
      db: f.handle.db,
      dialect: "postgres",
      databaseUrl: relay.url,
      logger,
      listenerCheckMs: 300,
    });
    await closing.ready();
    relay.silence();
    const started = Date.now();
    await closing.close();
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

/** Fails the first `times` pg_notify statements, as a connection lost between a write's commit and its notification would. */
function failingNotifications(times: number): KyselyPlugin {
  let left = times;
  return {
    transformQuery(args) {
      const node = args.node as { kind: string; sqlFragments?: readonly string[] };
      if (node.kind === "RawNode" && node.sqlFragments?.join("").includes("pg_notify") && left > 0) {
        left -= 1;
        throw new Error("Connection terminated unexpectedly");
      }
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
}

describe.skipIf(!TEST_DIALECTS.includes("postgres"))("a write's notification that fails", () => {
  const f = useContentFixture("postgres");

  it("is sent again until it goes through, so other instances do not keep the old content", async () => {
    const { logger: writerLogger, lines } = memoryLogger();
    const writer = createPublishedContent({
      db: f.handle.db.withPlugin(failingNotifications(2)),
      dialect: "postgres",
      databaseUrl: f.testDb.url,
      logger: writerLogger,
      notifyRetryMs: 100,
    });
    const reader = createPublishedContent({
      db: f.handle.db,
      dialect: "postgres",
      databaseUrl: f.testDb.url,
      logger,
    });
    try {
      await Promise.all([writer.ready(), reader.ready()]);
      const before = await reader.tips();
      expect(await reader.tips()).toBe(before);

      await createTip({ ...f.store, onChange: () => writer.invalidate() }, { title: "Told late", category: "AWS" });
      // The reader still has its snapshot: the notification failed.
      expect(await reader.tips()).toBe(before);
      await waitFor(async () => (await awsTips(reader)).includes("Told late"), 3000);

      const failures = lines().filter((line) => String(line.msg).startsWith("Could not notify the other instances"));
      expect(failures.map((line) => line.retryInMs)).toEqual([100, 200]);
    } finally {
      await writer.close();
      await reader.close();
    }
  });
});
