import type { Kysely } from "kysely";
import { Gauge, type Registry } from "prom-client";
import type { DatabaseHandle } from "../db/connection.ts";
import { type Database, OUTBOX_STATUSES } from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import { countEmailsByStatus } from "../mail/outbox.ts";

/**
 * Gauges read from the database when Prometheus scrapes, one query each: the email and
 * SMS outboxes by status, the active newsletter subscribers, and PostgreSQL's pool. A
 * query that fails leaves its gauge empty for that scrape (and says so in the log)
 * rather than failing the whole scrape, whose process metrics still tell something.
 */

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
  const failed = (gauge: Gauge<string>, what: string) => (error: unknown) => {
    gauge.reset();
    logger.warn({ err: error }, `Metrics: could not count ${what}`);
  };

  new Gauge({
    name: "bastion_email_outbox_messages",
    help: "Emails in the outbox, by status (pending and sending: queued; sent; failed; unsent)",
    labelNames: ["status"] as const,
    registers: [registry],
    async collect() {
      await countEmailsByStatus(db).then(
        (counts) => {
          for (const status of OUTBOX_STATUSES) this.set({ status }, counts[status]);
        },
        failed(this, "the email outbox"),
      );
    },
  });

  new Gauge({
    name: "bastion_sms_outbox_messages",
    help: "Text messages in the SMS outbox, by status (pending and sending: queued; sent; failed; unsent)",
    labelNames: ["status"] as const,
    registers: [registry],
    async collect() {
      const rows = db
        .selectFrom("sms_outbox")
        .select((eb) => ["status", eb.fn.countAll<number>().as("count")])
        .groupBy("status")
        .execute();
      await rows.then(
        (found) => {
          const counts = new Map(found.map((row) => [row.status, Number(row.count)]));
          for (const status of OUTBOX_STATUSES) this.set({ status }, counts.get(status) ?? 0);
        },
        failed(this, "the SMS outbox"),
      );
    },
  });

  new Gauge({
    name: "bastion_newsletter_active_subscribers",
    help: "Newsletter subscribers who confirmed their address and are subscribed",
    registers: [registry],
    async collect() {
      const row = db
        .selectFrom("newsletter_subscribers")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .where("status", "=", "active")
        .executeTakeFirstOrThrow();
      await row.then(({ count }) => this.set(Number(count)), failed(this, "the newsletter subscribers"));
    },
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
