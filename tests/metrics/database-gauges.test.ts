import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../../server/db/connection.ts";
import { createMetrics } from "../../server/metrics/registry.ts";
import { createTestDatabase, type MigratedDatabase, migratedDatabase, TEST_DIALECTS } from "../helpers/databases.ts";

/**
 * The database gauges while the database fails, or answers nothing (a hung server, a network that
 * drops packets, every connection taken by stuck queries): the scrape still answers in
 * time with what it can tell (process metrics, PostgreSQL's pool), and scrapes in a row
 * do not pile up queries that wait for a connection.
 */

/** More than the gauges' own limit, well under Prometheus's default scrape timeout of 10 s. */
const SCRAPE_LIMIT_MS = 5000;

const scrapeInTime = (render: () => Promise<string>) =>
  Promise.race([
    render(),
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`the scrape took over ${SCRAPE_LIMIT_MS} ms`)), SCRAPE_LIMIT_MS),
    ),
  ]);

describe.each(TEST_DIALECTS)("the database gauges on %s", (dialect) => {
  let migrated: MigratedDatabase;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    migrated = await migratedDatabase(dialect);
    handle = migrated.handle;
  });

  afterAll(async () => {
    await migrated?.close();
  });

  it("are left out of the scrape, not read as 0, while the database answers with errors", async () => {
    // A database without the schema: every count fails.
    const empty = await createTestDatabase(dialect);
    const failing = openDatabase(empty.config);
    const warnings: string[] = [];
    const metrics = createMetrics({
      db: failing.db,
      pool: failing.pool,
      logger: { warn: (_details: unknown, message?: string) => warnings.push(String(message)) },
    });
    let text: string;
    try {
      text = await scrapeInTime(() => metrics.render());
    } finally {
      await failing.close();
      await empty.drop();
    }
    expect(text).toMatch(/^process_resident_memory_bytes \d/m);
    expect(text).not.toMatch(/^bastion_email_outbox_messages\{/m);
    expect(text).not.toMatch(/^bastion_sms_outbox_messages\{/m);
    expect(text).not.toMatch(/^bastion_newsletter_active_subscribers /m);
    expect(warnings).toEqual(
      expect.arrayContaining([
        "Metrics: could not count the email outbox",
        "Metrics: could not count the SMS outbox",
        "Metrics: could not count the newsletter subscribers",
      ]),
    );
  });

  it("leave the scrape in time, without them, while no connection answers", async () => {
    const warnings: string[] = [];
    const metrics = createMetrics({
      db: handle.db,
      pool: handle.pool,
      logger: { warn: (_details: unknown, message?: string) => warnings.push(String(message)) },
    });
    // Every connection taken and none given back: SQLite's one, PostgreSQL's whole pool.
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const connections = dialect === "postgres" ? (handle.pool?.options.max ?? 10) : 1;
    let taken = 0;
    const holders = Array.from({ length: connections }, () =>
      handle.db.connection().execute(async () => {
        taken += 1;
        await released;
      }),
    );
    try {
      await expect.poll(() => taken).toBe(connections);
      const text = await scrapeInTime(() => metrics.render());
      expect(text).toMatch(/^process_resident_memory_bytes \d/m);
      expect(text).not.toMatch(/^bastion_email_outbox_messages\{/m);
      expect(text).not.toMatch(/^bastion_newsletter_active_subscribers /m);
      expect(warnings).toContain("Metrics: could not count the email outbox");
      if (dialect === "postgres") {
        expect(text).toMatch(/^bastion_db_pool_connections\{state="waiting"\} [1-9]/m);
        // A second scrape waits on the queries still queued rather than queueing more.
        const waiting = handle.pool?.waitingCount;
        await scrapeInTime(() => metrics.render());
        expect(handle.pool?.waitingCount).toBe(waiting);
      }
    } finally {
      release();
      await Promise.all(holders);
    }
    // Once the database answers again, so do the gauges.
    await expect
      .poll(async () => /^bastion_email_outbox_messages\{status="pending"\} 0$/m.test(await metrics.render()))
      .toBe(true);
  });
});
