import type { Kysely } from "kysely";
import type { DialectName } from "../db/connection.ts";
import type { Database } from "../db/schema.ts";
import { startPolledRuns } from "../jobs/polled-runs.ts";
import type { Logger } from "../logger.ts";
import { deleteAuditRowsBefore } from "./audit-log.ts";

/**
 * Deletes audit-log rows older than AUDIT_LOG_DAYS, inside the server process: at
 * start-up, then once an hour. Some rows hold a client's IP address (failed sign-ins,
 * wrong second-factor codes), and a site under password guessing writes one per
 * attempt: kept for good, they would be personal data without end and a table without
 * bound. Several instances may run it at once over one PostgreSQL database: a delete by
 * age is the same whoever runs it, and the batches avoid each other (audit-log.ts).
 */

const AUDIT_PRUNE_EVERY_MS = 3_600_000;
const DAY_MS = 86_400_000;

export interface AuditLogPruningOptions {
  db: Kysely<Database>;
  dialect: DialectName;
  /** Rows older than this many days are deleted (AUDIT_LOG_DAYS). */
  days: number;
  logger: Logger;
  /** Rows per delete statement; default AUDIT_DELETE_BATCH_SIZE. */
  batchSize?: number;
  /** false: runs only when runOnce() is called (tests). Default true. */
  autoRun?: boolean;
}

export interface AuditLogPruning {
  /** Deletes the rows due now; resolves with how many. */
  runOnce(): Promise<number>;
  /** Stops the hourly runs; a run under way ends after its current batch. */
  stop(): Promise<void>;
}

export function startAuditLogPruning(options: AuditLogPruningOptions): AuditLogPruning {
  const { db, dialect, days, logger, batchSize } = options;
  const runs = startPolledRuns({
    run: async () => {
      const deleted = await deleteAuditRowsBefore(db, new Date(Date.now() - days * DAY_MS), {
        dialect,
        batchSize,
        stopping: () => runs.stopping,
      });
      if (deleted > 0) logger.info({ deleted }, `Deleted ${deleted} audit-log rows older than ${days} days`);
      return deleted;
    },
    pollIntervalMs: AUDIT_PRUNE_EVERY_MS,
    autoRun: options.autoRun,
    logger,
    failureMessage: "Could not delete old audit-log rows; trying again in an hour",
  });
  return { runOnce: runs.runOnce, stop: runs.stop };
}
