import type { Kysely, Selectable } from "kysely";
import { publishedPaths } from "../content/paths.ts";
import type { Database, NOTIFICATION_ITEM_TYPES, NotificationsTable } from "../db/schema.ts";
import { newId } from "../ids.ts";
import type { Logger } from "../logger.ts";
import { isRecipientAddress } from "../mail/email-input.ts";
import { countEmailsByStatus, enqueueEmails, type NewEmail } from "../mail/outbox.ts";
import { SITE_NAME } from "../site.ts";
import { renderNotificationEmail } from "./notification-email.ts";
import { NEWSLETTER_SETTING_DEFAULTS } from "./settings.ts";
import { oneClickUnsubscribeUrl, unsubscribeUrl } from "./tokens.ts";

/**
 * The notifications table: one row per published item (UNIQUE(item_type, item_id)),
 * so an item is announced once: editing or re-publishing it never emails again. A
 * notification waits a grace period (unpublishing or deleting within it cancels it;
 * publishing again then starts it over, as nothing was sent), then the scheduler fans
 * it out: it writes one outbox row per eligible subscriber, keyed
 * `notify:{id}:{subscriber}`, a chunk of subscribers per statement, and then claims
 * the notification (pending → sent, a compare-and-set). Several instances may run the
 * scheduler: their rows meet on the idempotency keys, so each subscriber has one
 * email, and the claim lets one of them count the notification. A run that died
 * half-way left the notification pending and its rows in place: the next run writes
 * only the rest.
 */

export const NOTIFICATION_GRACE_MS = 2 * 60_000;

export type NotificationItemType = (typeof NOTIFICATION_ITEM_TYPES)[number];
export type NotificationRow = Selectable<NotificationsTable>;

/** What the subject calls each kind of item. */
const NOTIFICATION_POST_TYPES: Readonly<Record<NotificationItemType, string>> = {
  chapter: "chapter",
  tip: "tip",
  resource: "resource",
};

export interface NotifiableItem {
  type: NotificationItemType;
  id: string;
  title: string;
  summary?: string;
  /** The item's page: a path on the site (resolved against publicOrigin when sending) or an absolute URL. */
  url: string;
  imageUrl?: string | null;
}

/** newsletter_settings.auto_send_enabled, its default when the key is missing. */
async function autoSendEnabled(db: Kysely<Database>): Promise<boolean> {
  const row = await db
    .selectFrom("newsletter_settings")
    .select("setting_value")
    .where("setting_key", "=", "auto_send_enabled")
    .executeTakeFirst();
  return (row?.setting_value ?? NEWSLETTER_SETTING_DEFAULTS.auto_send_enabled) === "true";
}

/**
 * Schedules the email about a newly published item, `graceMs` from now, when
 * automatic notifications are on. An item whose notification was cancelled (it was
 * unpublished within its grace period, before any email) is announced as it now is.
 * Returns the scheduled row, or undefined when they are off or the item already has a
 * notification that is pending or sent.
 */
export async function scheduleNotification(
  db: Kysely<Database>,
  item: NotifiableItem,
  options: { graceMs?: number; now?: Date } = {},
): Promise<NotificationRow | undefined> {
  if (!(await autoSendEnabled(db))) return undefined;
  const now = options.now ?? new Date();
  const graceMs = Math.max(0, options.graceMs ?? NOTIFICATION_GRACE_MS);
  const announcement = {
    title: item.title,
    summary: item.summary ?? "",
    url: item.url,
    image_url: item.imageUrl ?? null,
    status: "pending" as const,
    created_at: now.toISOString(),
    scheduled_for: new Date(now.getTime() + graceMs).toISOString(),
  };
  return db
    .insertInto("notifications")
    .values({ id: newId("notification"), item_type: item.type, item_id: item.id, ...announcement })
    .onConflict((conflict) =>
      conflict
        .columns(["item_type", "item_id"])
        .doUpdateSet(announcement)
        .where("notifications.status", "=", "cancelled"),
    )
    .returningAll()
    .executeTakeFirst();
}

/**
 * Cancels the item's notification while it is still in its grace period. Returns
 * false when there is none to cancel (never scheduled, already sent or cancelled, or
 * past its grace period: only then may the fan-out start, so the two never overlap).
 */
export async function cancelNotification(
  db: Kysely<Database>,
  item: { type: NotificationItemType; id: string },
  now = new Date(),
): Promise<boolean> {
  const result = await db
    .updateTable("notifications")
    .set({ status: "cancelled" })
    .where("item_type", "=", item.type)
    .where("item_id", "=", item.id)
    .where("status", "=", "pending")
    .where("scheduled_for", ">", now.toISOString())
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function getNotificationForItem(
  db: Kysely<Database>,
  item: { type: NotificationItemType; id: string },
): Promise<NotificationRow | undefined> {
  return db
    .selectFrom("notifications")
    .selectAll()
    .where("item_type", "=", item.type)
    .where("item_id", "=", item.id)
    .executeTakeFirst();
}

export interface NotificationProgress {
  /** Waiting or being sent (pending, sending). */
  queued: number;
  sent: number;
  /** Failed for good, or not sent because no SMTP server is configured (both can be retried from the email log). */
  failed: number;
}

/** How the emails of one notification are doing, from the outbox. */
export async function notificationProgress(
  db: Kysely<Database>,
  notificationId: string,
): Promise<NotificationProgress> {
  const counts = await countEmailsByStatus(db, notificationId);
  return { queued: counts.pending + counts.sending, sent: counts.sent, failed: counts.failed + counts.unsent };
}

export type NotificationWithProgress = Pick<
  NotificationRow,
  "id" | "item_type" | "title" | "status" | "created_at" | "scheduled_for" | "sent_at"
> & { progress: NotificationProgress };

/** The most recent notifications (newest first, at most `limit`) with how their emails are doing (the admin's email log). */
export async function listNotificationsWithProgress(
  db: Kysely<Database>,
  options: { limit?: number } = {},
): Promise<NotificationWithProgress[]> {
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? 20), 1), 100);
  const rows = await db
    .selectFrom("notifications")
    .select(["id", "item_type", "title", "status", "created_at", "scheduled_for", "sent_at"])
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return Promise.all(rows.map(async (row) => ({ ...row, progress: await notificationProgress(db, row.id) })));
}

export interface FanOutOptions {
  config: { publicOrigin: string };
  /** The server's signing secret: keys the unsubscribe links (tokens.ts). */
  secret: string;
  siteName?: string;
  /** Default: the current time. */
  now?: Date;
  /** Notifications handled per run. Default 10. */
  limit?: number;
  /** Subscribers written per statement. Default 200. */
  chunkSize?: number;
}

export interface FanOutResult {
  /** Notifications this run claimed and marked sent. */
  notifications: number;
  /** Outbox rows it wrote (a re-run after a crash writes none twice). */
  emails: number;
  /** Subscribers left out: their stored address is one the outbox refuses. */
  skippedSubscriberIds: string[];
}

/** Fans out every due notification (at most `limit`); see the module comment. */
export async function sendDueNotifications(db: Kysely<Database>, options: FanOutOptions): Promise<FanOutResult> {
  const now = (options.now ?? new Date()).toISOString();
  const due = await db
    .selectFrom("notifications")
    .select("id")
    .where("status", "=", "pending")
    .where("scheduled_for", "<=", now)
    .orderBy("scheduled_for")
    .orderBy("id")
    .limit(Math.max(1, options.limit ?? 10))
    .execute();
  const result: FanOutResult = { notifications: 0, emails: 0, skippedSubscriberIds: [] };
  for (const { id } of due) {
    const { claimed, emails, skipped } = await fanOut(db, id, now, options);
    // Rows a run wrote count even when another run claimed the notification first.
    result.emails += emails;
    result.skippedSubscriberIds.push(...skipped);
    if (claimed) result.notifications += 1;
  }
  return result;
}

/** Subscribers written per statement of a fan-out (FanOutOptions.chunkSize). */
const FAN_OUT_CHUNK_SIZE = 200;

/**
 * One notification, in chunks of subscribers: the rows this run wrote, and whether it
 * claimed the notification (another run may have been first). The event loop gets a
 * turn between chunks: on SQLite (synchronous, one connection) a single transaction of
 * 10,000 rendered emails held every other request — visitors included — for seconds.
 */
async function fanOut(db: Kysely<Database>, id: string, now: string, options: FanOutOptions) {
  const notification = await db
    .selectFrom("notifications")
    .selectAll()
    .where("id", "=", id)
    .where("status", "=", "pending")
    .where("scheduled_for", "<=", now)
    .executeTakeFirst();
  if (!notification) return { claimed: false, emails: 0, skipped: [] };
  const current = await itemToAnnounce(db, notification);
  if (!current) {
    await db
      .updateTable("notifications")
      .set({ status: "cancelled" })
      .where("id", "=", id)
      .where("status", "=", "pending")
      .execute();
    return { claimed: false, emails: 0, skipped: [] };
  }
  if (
    current.title !== notification.title ||
    current.summary !== notification.summary ||
    current.url !== notification.url
  ) {
    // Kept on the row too: the admin's list of notifications shows what was sent.
    await db.updateTable("notifications").set(current).where("id", "=", id).where("status", "=", "pending").execute();
  }
  const announced = { ...notification, ...current };
  const chunkSize = Math.max(1, options.chunkSize ?? FAN_OUT_CHUNK_SIZE);
  let created = 0;
  const skipped: string[] = [];
  let after = "";
  for (;;) {
    // Two statements per chunk and no transaction around them: the emails are rendered
    // while the connection is free for other requests, and one INSERT is atomic alone.
    const chunk = await eligibleSubscribers(db, announced, after, chunkSize);
    // An address the outbox refuses (imported, or edited in the database) would fail the
    // whole chunk, and every notification behind this one, run after run: left out.
    const deliverable = chunk.filter((subscriber) => isRecipientAddress(subscriber.email));
    for (const subscriber of chunk) if (!deliverable.includes(subscriber)) skipped.push(subscriber.id);
    created += await enqueueEmails(
      db,
      deliverable.map((subscriber) => notificationEmail(announced, subscriber, options)),
    );
    const last = chunk.at(-1);
    if (!last || chunk.length < chunkSize) break;
    after = last.id;
    await new Promise((resolve) => setImmediate(resolve));
  }
  // The claim: of several instances running this at once, only one turns the pending
  // row into sent (the others' rows were skipped by their idempotency keys).
  const claimed = await db
    .updateTable("notifications")
    .set({ status: "sent", sent_at: now })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .executeTakeFirst();
  return { claimed: Number(claimed.numUpdatedRows) > 0, emails: created, skipped };
}

/**
 * What a due notification announces, read from its item as it is now, or undefined when
 * it no longer goes out: automatic notifications were turned off, or its item is gone (a
 * chapter no longer published). Past the grace period, a delete or an unpublish no
 * longer cancels it (cancelNotification); the fan-out, which may run up to a poll
 * interval later, checks again. The title, summary and link are the item's current
 * ones, so that a correction made within the grace period is what subscribers read.
 */
async function itemToAnnounce(
  db: Kysely<Database>,
  notification: NotificationRow,
): Promise<Pick<NotificationRow, "title" | "summary" | "url"> | undefined> {
  if (!(await autoSendEnabled(db))) return undefined;
  const { item_type: type, item_id: id } = notification;
  if (type === "chapter") {
    const chapter = await db
      .selectFrom("chapters")
      .select(["title", "slug"])
      .where("id", "=", id)
      .where("published", "=", true)
      .executeTakeFirst();
    return (
      chapter && { title: chapter.title, summary: notification.summary, url: publishedPaths.chapter(chapter.slug) }
    );
  }
  const item =
    type === "tip"
      ? await db.selectFrom("tips_resources").select(["title", "description"]).where("id", "=", id).executeTakeFirst()
      : await db
          .selectFrom("resources")
          .select(["name as title", "description"])
          .where("id", "=", id)
          .executeTakeFirst();
  return item && { title: item.title, summary: item.description, url: notification.url };
}

/**
 * The next `limit` subscribers after `after` (by id) who get the notification: active,
 * confirmed before it existed, and not suppressed (both tables hold normalized,
 * lower-case addresses: a CHECK constraint, suppression.ts).
 */
function eligibleSubscribers(db: Kysely<Database>, notification: NotificationRow, after: string, limit: number) {
  return db
    .selectFrom("newsletter_subscribers as s")
    .select(["s.id", "s.email"])
    .where("s.status", "=", "active")
    .where("s.confirmed_at", "is not", null)
    .where("s.confirmed_at", "<=", notification.created_at)
    .where("s.id", ">", after)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom("newsletter_suppressions as x").select("x.id").whereRef("x.email", "=", "s.email"))),
    )
    .orderBy("s.id")
    .limit(limit)
    .execute();
}

function notificationEmail(
  notification: NotificationRow,
  subscriber: { id: string; email: string },
  options: FanOutOptions,
): NewEmail {
  return {
    idempotencyKey: `notify:${notification.id}:${subscriber.id}`,
    kind: "notification",
    batchId: notification.id,
    to: subscriber.email,
    ...renderNotificationEmail({
      siteName: options.siteName ?? SITE_NAME,
      publicOrigin: options.config.publicOrigin,
      postType: NOTIFICATION_POST_TYPES[notification.item_type],
      title: notification.title,
      summary: notification.summary,
      url: notification.url,
      imageUrl: notification.image_url,
      unsubscribeUrl: unsubscribeUrl(options.config, options.secret, subscriber.id),
      oneClickUnsubscribeUrl: oneClickUnsubscribeUrl(options.config, options.secret, subscriber.id),
    }),
  };
}

export interface NotificationScheduler {
  /** Fans out what is due now; resolves with the number of emails queued. Runs never overlap. */
  runOnce(): Promise<number>;
  /** Waits for the run in progress and stops polling. */
  stop(): Promise<void>;
}

export interface NotificationSchedulerOptions extends Omit<FanOutOptions, "now"> {
  db: Kysely<Database>;
  logger: Logger;
  /** Called after a run queued emails: wake the mail worker. */
  onEmailsQueued?: () => void;
  /** How often due notifications are looked for. Default 10 s. */
  pollIntervalMs?: number;
  /** false: runs only when runOnce() is called (tests). Default true. */
  autoRun?: boolean;
}

export function startNotificationScheduler(options: NotificationSchedulerOptions): NotificationScheduler {
  const { db, onEmailsQueued } = options;
  const logger = options.logger.child({ component: "notifications" });
  const pollIntervalMs = options.pollIntervalMs ?? 10_000;
  let running: Promise<number> = Promise.resolve(0);
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const runBatch = async (): Promise<number> => {
    let emails = 0;
    // Keep going while a run was cut by its limit.
    for (;;) {
      const result = await sendDueNotifications(db, options);
      emails += result.emails;
      if (result.emails > 0) onEmailsQueued?.();
      if (result.notifications > 0) {
        logger.info({ notifications: result.notifications, emails: result.emails }, "notifications fanned out");
      }
      if (result.skippedSubscriberIds.length > 0) {
        logger.warn(
          { subscriberIds: result.skippedSubscriberIds },
          "Subscribers left out of a notification: their stored address is not one the mailer takes",
        );
      }
      if (result.notifications < (options.limit ?? 10)) return emails;
    }
  };

  const runOnce = (): Promise<number> => {
    // Runs one after another. A failed run was already reported to whoever awaited it
    // (the poll logs it): the next run starts regardless.
    running = running.catch(() => 0).then(runBatch);
    return running;
  };

  const schedule = () => {
    if (stopped || options.autoRun === false) return;
    timer = setTimeout(() => {
      runOnce()
        .catch((error: unknown) => logger.error({ err: error }, "notification fan-out failed"))
        .finally(schedule);
    }, pollIntervalMs);
    timer.unref();
  };
  schedule();

  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      // Waits for the run in progress to end; its failure is its caller's to report.
      await running.catch(() => {});
    },
  };
}
