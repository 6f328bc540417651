import type { Kysely } from "kysely";
import { Gauge, type Registry } from "prom-client";
import type { DatabaseHandle } from "../db/connection.ts";
import { type Database, OUTBOX_STATUSES } from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import { countEmailsByStatus } from "../mail/outbox.ts";

/**
 * Gauges read from the database when Prometheus scrapes, one query each: the email and
 * SMS outboxes by status, the active newsletter subscribers, and PostgreSQL's pool. A
 * query that fails, or has no answer within QUERY_TIMEOUT_MS, leaves its gauge empty for
 * that scrape (and says so in the log) rather than failing or stalling the whole scrape,
 * whose process metrics and pool gauges still tell something: most of all while the
 * database hangs.
 */

/** Well within Prometheus's default scrape timeout (10 s). */
const QUERY_TIMEOUT_MS = 2000;

export interface DatabaseGaugeSources {
  db: Kysely<Database>;
  /** PostgreSQL's pool; SQLite has a single connection and no pool gauges. */
  pool?: DatabaseHandle["pool"];
}

export function registerDatabaseGauges(
  registry: Registry,
  options: DatabaseGaugeSources & { logger: Pick<Logger, "warn"> },
): void {
  const { db, pool, logger } = options;

  /**
   * A gauge's collect(): sets the gauge from its query's result. One query at a time: a
   * scrape that comes while the last one still waits for the database waits on that one
   * instead of queueing another behind it.
   */
  const readFromDatabase = <T>(
    what: string,
    query: () => Promise<T>,
    set: (gauge: Gauge<string>, result: T) => void,
  ) => {
    let pending: Promise<T> | undefined;
    return async function collect(this: Gauge<string>): Promise<void> {
      pending ??= query().finally(() => {
        pending = undefined;
      });
      let timer: NodeJS.Timeout | undefined;
      try {
        const timedOut = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${QUERY_TIMEOUT_MS} ms`)), QUERY_TIMEOUT_MS);
        });
        set(this, await Promise.race([pending, timedOut]));
      } catch (error) {
        // reset() leaves a gauge without labels at 0, which would read as a real count:
        // remove({}) takes that series out too.
        this.reset();
        this.remove({});
        logger.warn({ err: error }, `Metrics: could not count ${what}`);
      } finally {
        clearTimeout(timer);
      }
    };
  };

  new Gauge({
    name: "bastion_email_outbox_messages",
    help: "Emails in the outbox, by status (pending and sending: queued; sent; failed; unsent)",
    labelNames: ["status"] as const,
    registers: [registry],
    collect: readFromDatabase(
      "the email outbox",
      () => countEmailsByStatus(db),
      (gauge, counts) => {
        for (const status of OUTBOX_STATUSES) gauge.set({ status }, counts[status]);
      },
    ),
  });

  new Gauge({
    name: "bastion_sms_outbox_messages",
    help: "Text messages in the SMS outbox, by status (pending and sending: queued; sent; failed; unsent)",
    labelNames: ["status"] as const,
    registers: [registry],
    collect: readFromDatabase(
      "the SMS outbox",
      () =>
        db
          .selectFrom("sms_outbox")
          .select((eb) => ["status", eb.fn.countAll<number>().as("count")])
          .groupBy("status")
          .execute(),
      (gauge, found) => {
        const counts = new Map(found.map((row) => [row.status, Number(row.count)]));
        for (const status of OUTBOX_STATUSES) gauge.set({ status }, counts.get(status) ?? 0);
      },
    ),
  });

  new Gauge({
    name: "bastion_newsletter_active_subscribers",
    help: "Newsletter subscribers who confirmed their address and are subscribed",
    registers: [registry],
    collect: readFromDatabase(
      "the newsletter subscribers",
      () =>
        db
          .selectFrom("newsletter_subscribers")
          .select((eb) => eb.fn.countAll<number>().as("count"))
          .where("status", "=", "active")
          .executeTakeFirstOrThrow(),
      (gauge, { count }) => gauge.set(Number(count)),
    ),
  });

  if (!pool) return;
  new Gauge({
    name: "bastion_db_pool_connections",
    help: "PostgreSQL pool connections: open (total), idle, and queries waiting for one (waiting)",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      this.set({ state: "total" }, pool.totalCount);
      this.set({ state: "idle" }, pool.idleCount);
      this.set({ state: "waiting" }, pool.waitingCount);
    },
  });
  new Gauge({
    name: "bastion_db_pool_max_connections",
    help: "The most connections the PostgreSQL pool opens",
    registers: [registry],
    collect() {
      this.set(pool.options.max ?? 10);
    },
  });
}
