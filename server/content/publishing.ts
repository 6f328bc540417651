import {
  cancelNotification,
  type NotifiableItem,
  type NotificationItemType,
  scheduleNotification,
} from "../newsletter/notifications.ts";
import type { ContentStore } from "./store.ts";

/**
 * The "content published" hook every content write calls: a chapter published, a tip
 * or a resource created. It schedules the newsletter notification of the item (once
 * per item, when automatic notifications are on); withdrawing the item (unpublishing,
 * deleting) within the grace period cancels it. `store.db` may be the transaction of
 * the write, so the notification exists only if the content change commits.
 */

export type PublishedItem = NotifiableItem;

export async function contentPublished(store: ContentStore, item: PublishedItem): Promise<void> {
  await scheduleNotification(store.db, item, { graceMs: store.notificationGraceMs });
}

export async function contentWithdrawn(
  store: ContentStore,
  item: { type: NotificationItemType; id: string },
): Promise<void> {
  await cancelNotification(store.db, item);
}
