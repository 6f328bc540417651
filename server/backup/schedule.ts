import { readdir, unlink } from "node:fs/promises";
import path from "node:path";
import { Cron } from "croner";
import { sql } from "kysely";
import type { DatabaseHandle } from "../db/connection.ts";
import type { Logger } from "../logger.ts";
import { hitLimit } from "../request-limits.ts";
import { type BackupConfig, backupDirectory, backupFileName, createBackup } from "./backup.ts";

/**
 * Scheduled backups (BACKUP_SCHEDULE, BACKUP_KEEP): `bastion-scheduled-….tar.gz` in
 * DATA_DIR/backups, the oldest beyond BACKUP_KEEP deleted after each one. Other backups
 * (taken by hand, or before a migration) are never deleted here.
 *
 * Several instances on one PostgreSQL database all fire at the same time: each run
 * first takes an advisory lock (no two backups at once), then claims the run's slot
 * (its scheduled time) in request_limits, which only the first instance gets.
 */

export type ScheduleConfig = BackupConfig & { backup: { schedule: string | null; keep: number } };

const SCHEDULED_PREFIX = "scheduled-";
const SCHEDULED_FILE = /^bastion-scheduled-.+\.tar\.gz$/;
/** pg_try_advisory_lock's key for scheduled backups ("bastbk" in ASCII). */
const LOCK_KEY = 0x626173746b62;
const CLAIM_KEY = "scheduled-backup";

export interface BackupSchedule {
  /** No further runs; resolves once a run under way has finished. */
  stop(): Promise<void>;
}

export function startBackupSchedule(options: {
  config: ScheduleConfig;
  handle: DatabaseHandle;
  logger: Logger;
}): BackupSchedule {
  const { config, handle, logger } = options;
  const pattern = config.backup.schedule;
  if (!pattern) return { stop: async () => {} };
  let running: Promise<unknown> = Promise.resolve();
  // The scheduled time, the same on every instance whatever their timers' drift.
  const slotOf = (self: Cron) => self.previousRuns(1, new Date(Date.now() + 1))[0] ?? new Date();
  // A run still under way when the next is due makes that one skipped (on PostgreSQL, the
  // other instances skip it too: the running backup holds the lock), which the log says.
  const skipped = (self: Cron) =>
    logger.warn({ slot: slotOf(self).toISOString() }, "Scheduled backup skipped: the previous one is still running");
  const job = new Cron(pattern, { protect: skipped }, async (self: Cron) => {
    const slot = slotOf(self);
    const run = runScheduledBackup({ config, handle, logger, slot }).catch((error: unknown) => {
      logger.error({ err: error }, "The scheduled backup failed");
    });
    running = run;
    await run;
  });
  logger.info({ schedule: pattern, keep: config.backup.keep, next: job.nextRun()?.toISOString() }, "Backups scheduled");
  return {
    async stop() {
      job.stop();
      await running;
    },
  };
}

/**
 * One scheduled backup for the slot (its scheduled time): taken unless another
 * instance has it, then retention applied. Returns the file written, or null.
 */
export async function runScheduledBackup(options: {
  config: ScheduleConfig;
  handle: DatabaseHandle;
  logger: Pick<Logger, "info" | "debug">;
  slot: Date;
}): Promise<string | null> {
  const { config, handle, logger, slot } = options;
  return withBackupLock(handle, async () => {
    // Refused for a slot already claimed (any instance); the next slot starts afresh.
    const claim = await hitLimit(handle.db, CLAIM_KEY, 1, 1, slot);
    if (!claim.allowed) {
      logger.debug({ slot: slot.toISOString() }, "Scheduled backup already taken by another instance");
      return null;
    }
    const file = path.join(backupDirectory(config), backupFileName(SCHEDULED_PREFIX, slot));
    const result = await createBackup(config, handle, { file });
    const deleted = await pruneScheduledBackups(backupDirectory(config), config.backup.keep);
    logger.info(
      { file: result.file, bytes: result.bytes, deleted, leftoversRemoved: result.leftoversRemoved },
      `Scheduled backup written to ${result.file}`,
    );
    return result.file;
  });
}

/** Runs `work` under PostgreSQL's advisory lock (null when another instance holds it); SQLite has one instance. */
async function withBackupLock<T>(handle: DatabaseHandle, work: () => Promise<T>): Promise<T | null> {
  if (handle.dialect !== "postgres") return work();
  // A session lock lives on one connection: held on a reserved one while the backup
  // reads through the others.
  return handle.db.connection().execute(async (connection) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${LOCK_KEY}) as locked`.execute(
      connection,
    );
    if (!rows[0]?.locked) return null;
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(${LOCK_KEY})`.execute(connection);
    }
  });
}

/** Deletes the oldest scheduled backups beyond `keep` (names sort by time); returns their names. */
export async function pruneScheduledBackups(directory: string, keep: number): Promise<string[]> {
  const names = (await readdir(directory).catch(() => [] as string[]))
    .filter((name) => SCHEDULED_FILE.test(name))
    .sort();
  const old = names.slice(0, Math.max(0, names.length - keep));
  for (const name of old) await unlink(path.join(directory, name));
  return old;
}
