import type { Kysely } from "kysely";
import { createPageViewCounter, type PageViewCounter } from "./analytics/page-views.ts";
import { runAfterAnswerMs } from "./answer-floor.ts";
import { startAuditLogPruning } from "./audit/pruning.ts";
import { type BastionAuth, createAuth, RESET_REQUEST_ANSWER_FLOOR_MS } from "./auth/auth.ts";
import { enqueuePasswordResetEmail } from "./auth/emails.ts";
import { ensureOwnerAccount } from "./auth/owner-setup.ts";
import { backupBeforeMigrating } from "./backup/pre-migration.ts";
import { startBackupSchedule } from "./backup/schedule.ts";
import { type Config, resolveAuthSecret } from "./config.ts";
import { createPublishedContent, type LivePublishedContent } from "./content/published.ts";
import type { DatabaseHandle } from "./db/connection.ts";
import type { Database } from "./db/schema.ts";
import { prepareDatabase } from "./db/setup.ts";
import type { Logger } from "./logger.ts";
import { type MailWorker, startMailWorker } from "./mail/worker.ts";
import { recordHardBounce } from "./newsletter/bounces.ts";
import { startNotificationScheduler } from "./newsletter/notifications.ts";
import { refuseUnwantedRecipients } from "./newsletter/send-time-check.ts";
import { startSmsWorker } from "./sms/worker.ts";

/**
 * Long-lived services created once at start-up (startServices below), handed to the
 * routes through the router context (app/context.ts).
 */
export interface AppServices {
  auth: BastionAuth;
  config: Config;
  db: Kysely<Database>;
  logger: Logger;
  /** The server's signing secret (AUTH_SECRET or the generated one): keys HMACs such as unsubscribe tokens. */
  secret: string;
  /** Call wake() after committing a change that enqueued email, so it leaves within a second. */
  mail: Pick<MailWorker, "wake">;
  /**
   * Published content for the public pages (a PublishedContent, server/content/types.ts),
   * from the in-process cache. Content services take `content.invalidate` as onChange.
   */
  content: LivePublishedContent;
}

/**
 * Everything long-lived the server needs, created once at start-up in dependency
 * order and closed in reverse order at shutdown.
 */
export interface RunningServices {
  services: AppServices;
  database: DatabaseHandle;
  pageViews: PageViewCounter;
  close(): Promise<void>;
}

/**
 * Better Auth on an open database, as the server and the CLI (users:*) both use it:
 * the same secret, the same email hooks.
 */
export function createAuthForDatabase(
  config: Config,
  database: DatabaseHandle,
  logger: Logger,
  /** Wakes the mail worker of this process, when it has one, so the email leaves in `afterMs`. */
  onEmailQueued: (afterMs: number) => void = () => {},
  /** Wakes the SMS worker of this process, when it has one, so the text message leaves at once. */
  onSmsQueued: () => void = () => {},
) {
  return createAuth({
    config,
    database,
    logger,
    secret: resolveAuthSecret(config),
    sendPasswordResetEmail: async (reset) => {
      await enqueuePasswordResetEmail(database.db, config, reset);
      // The email exists only for a real account: its run waits until the held answer has left.
      onEmailQueued(runAfterAnswerMs(RESET_REQUEST_ANSWER_FLOOR_MS));
    },
    onSmsQueued,
  });
}

export async function startServices(config: Config, logger: Logger): Promise<RunningServices> {
  const database = await prepareDatabase(config.database, logger, (handle) =>
    backupBeforeMigrating(config, handle, logger),
  );
  const mail = startMailWorker({
    db: database.db,
    config,
    logger,
    pollIntervalMs: config.mail.pollIntervalMs,
    leaseMs: config.mail.leaseMs,
    retryBaseMs: config.mail.retryBaseMs,
    onPermanentFailure: (email, reply) => recordHardBounce(database.db, email.to_address, reply),
    // Suppression is checked when an email is queued and again here, when it is sent,
    // with the subscription of a subscriber's mail.
    refuseRecipients: (emails) => refuseUnwantedRecipients(database.db, emails),
  });
  const sms = startSmsWorker({ db: database.db, smsUrl: config.sms.url, logger });
  const { auth, close: closeAuth } = createAuthForDatabase(
    config,
    database,
    logger,
    (afterMs) => mail.wake(afterMs),
    () => sms.wake(),
  );
  try {
    // The owner account from ADMIN_*, or the one-time setup link, while no admin exists.
    await ensureOwnerAccount({ auth, db: database.db, config, logger });
  } catch (error) {
    // The start-up's error is the one thrown; a failure to close after it is logged
    // rather than hiding it.
    const logCloseFailure = (part: string) => (closeError: unknown) =>
      logger.error({ err: closeError }, `Could not close the ${part} after a failed start`);
    await closeAuth().catch(logCloseFailure("authentication"));
    await sms.stop().catch(logCloseFailure("SMS worker"));
    await mail.stop().catch(logCloseFailure("mail worker"));
    await database.close().catch(logCloseFailure("database"));
    throw error;
  }

  const pageViews = createPageViewCounter({ db: database.db, logger });
  // Scheduled backups into DATA_DIR/backups (BACKUP_SCHEDULE; off by default).
  const backups = startBackupSchedule({ config, handle: database, logger });
  // Deletes audit-log rows older than AUDIT_LOG_DAYS, at start-up and hourly (server/audit/pruning.ts).
  const auditPruning = startAuditLogPruning({
    db: database.db,
    dialect: database.dialect,
    days: config.auditLog.days,
    logger,
  });
  // Fans out due newsletter notifications (server/newsletter/notifications.ts).
  const notifications = startNotificationScheduler({
    db: database.db,
    config,
    secret: resolveAuthSecret(config),
    logger,
    pollIntervalMs: config.mail.notificationPollIntervalMs,
    onEmailsQueued: () => mail.wake(),
  });

  const content = createPublishedContent({
    db: database.db,
    dialect: database.dialect,
    databaseUrl: config.database.kind === "postgres" ? config.database.url : undefined,
    logger,
  });

  const services: AppServices = {
    auth,
    config,
    content,
    db: database.db,
    logger,
    mail,
    secret: resolveAuthSecret(config),
  };
  return {
    services,
    database,
    pageViews,
    async close() {
      await pageViews.stop();
      await backups.stop();
      await notifications.stop();
      await auditPruning.stop();
      await content.close();
      await mail.stop();
      await sms.stop();
      await closeAuth();
      await database.close();
    },
  };
}
