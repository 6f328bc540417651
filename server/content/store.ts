import type { Kysely, Transaction } from "kysely";
import { type AuditEntry, recordAudit } from "../audit/audit-log.ts";
import type { Database } from "../db/schema.ts";

/**
 * What every content write needs: the database, who is writing (for the audit log),
 * and the hook that tells readers the published content changed
 * (PublishedContent.invalidate: clears this process's cache and, on PostgreSQL,
 * notifies the other instances).
 */
export interface ContentStore {
  db: Kysely<Database>;
  /** The signed-in user making the change; null for the system (seeding, tests). */
  actorId: string | null;
  onChange(): void | Promise<void>;
  /**
   * Origins an image section's URL may point to besides this site's paths: the site's
   * own, the media storage's and IMAGE_ORIGINS (imageOriginRefusal). Unset: any
   * http(s) URL (the system's own writes: seeding, tests).
   */
  imageOrigins?: readonly string[];
  /** How long a newsletter notification waits before it is sent (default 2 min; tests shorten it). */
  notificationGraceMs?: number;
}

/** One content write in progress: its transaction, and the store as seen from inside it. */
export interface ContentWrite {
  trx: Transaction<Database>;
  /** The store on the transaction, for hooks that write alongside the change (newsletter notifications). */
  store: ContentStore;
  /** Records the change in the audit log, as the store's actor. */
  audit(entry: Omit<AuditEntry, "userId">): Promise<void>;
}

/**
 * Runs a content write in one transaction with its audit row, then tells the readers.
 * A write that audited nothing changed nothing (a refused move, a repeated save), so
 * the readers' caches are kept. Readers are told only after the commit: a reader that
 * reloads at once must see the change.
 */
export async function writeContent<T>(store: ContentStore, work: (write: ContentWrite) => Promise<T>): Promise<T> {
  let audited = false;
  const result = await store.db.transaction().execute((trx) =>
    work({
      trx,
      store: { ...store, db: trx },
      async audit(entry) {
        await recordAudit(trx, { ...entry, userId: store.actorId });
        audited = true;
      },
    }),
  );
  if (audited) await store.onChange();
  return result;
}

export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | undefined;
  return e?.code === "23505" || (typeof e?.message === "string" && e.message.includes("UNIQUE constraint failed"));
}

/** Drops the keys whose value is undefined, so that a partial update leaves those columns alone. */
export function defined<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** Highest order_index + 1 (0 for the first item). */
export async function nextOrderIndex(
  db: Kysely<Database>,
  table: "chapters" | "certifications" | "skills" | "timeline_events",
): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.max("order_index").as("highest"))
    .executeTakeFirst();
  return row?.highest == null ? 0 : Number(row.highest) + 1;
}
