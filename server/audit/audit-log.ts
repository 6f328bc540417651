import type { Kysely } from "kysely";
import type { DialectName } from "../db/connection.ts";
import { type Database, toJson } from "../db/schema.ts";
import { newId } from "../ids.ts";

/**
 * The audit_log table: who did what, when. The only writer of that table. Rows are kept
 * AUDIT_LOG_DAYS (server/audit/pruning.ts deletes older ones).
 */

export interface AuditEntry {
  userId: string | null;
  /** e.g. auth.sign-in, auth.sign-in-failed, auth.sign-out, user.role-changed, user.invited. */
  action: string;
  entity: string;
  entityId?: string | null;
  details?: Record<string, unknown>;
}

export async function recordAudit(db: Kysely<Database>, entry: AuditEntry): Promise<void> {
  await db
    .insertInto("audit_log")
    .values({
      id: newId("audit"),
      at: new Date().toISOString(),
      user_id: entry.userId,
      action: entry.action,
      entity: entry.entity,
      entity_id: entry.entityId ?? null,
      details: toJson(entry.details ?? {}),
    })
    .execute();
}

/**
 * Failed sign-ins for one email address since a moment, for the per-account limit. The
 * longest look back of any reader of this table (an hour, sign-in-guard.ts): it must
 * stay well within AUDIT_LOG_MIN_DAYS (config.ts), or pruning would lift the lock.
 */
export async function countFailedSignIns(db: Kysely<Database>, email: string, since: string): Promise<number> {
  const row = await db
    .selectFrom("audit_log")
    .select((eb) => eb.fn.countAll<number>().as("failures"))
    .where("action", "=", "auth.sign-in-failed")
    .where("entity_id", "=", email.toLowerCase())
    .where("at", ">=", since)
    .executeTakeFirstOrThrow();
  return row.failures;
}

/**
 * Rows deleted per statement by deleteAuditRowsBefore. On SQLite a statement holds the
 * process's one connection, and the event loop, while it runs: a few milliseconds per
 * batch, where a first pruning of a big table in one statement would take seconds.
 */
export const AUDIT_DELETE_BATCH_SIZE = 500;

interface DeleteAuditRowsOptions {
  dialect: DialectName;
  batchSize?: number;
  /** Asked between batches: true ends the deletion there (the server is shutting down). */
  stopping?: () => boolean;
}

/**
 * Deletes the rows written before `before`, oldest first, in batches of `batchSize`
 * with a turn of the event loop between them; returns how many it deleted. Each batch
 * is one statement, atomic alone, so a deletion cut short leaves only whole rows.
 *
 * Several instances may run it at once on PostgreSQL. Each batch locks the rows it
 * picks with SKIP LOCKED, so two deletions never wait for each other's rows (which
 * could deadlock, one of them then failing): each takes rows the other has not, and
 * a row the other deleted is gone from the next batch's choice.
 */
export async function deleteAuditRowsBefore(
  db: Kysely<Database>,
  before: Date,
  options: DeleteAuditRowsOptions,
): Promise<number> {
  const batchSize = Math.max(1, options.batchSize ?? AUDIT_DELETE_BATCH_SIZE);
  const cutoff = before.toISOString();
  let deleted = 0;
  for (;;) {
    const result = await db
      .deleteFrom("audit_log")
      .where("id", "in", (eb) =>
        eb
          .selectFrom("audit_log")
          .select("id")
          .where("at", "<", cutoff)
          .orderBy("at")
          .limit(batchSize)
          // SQLite has one writer at a time and no row locks (nor the syntax).
          .$if(options.dialect === "postgres", (query) => query.forUpdate().skipLocked()),
      )
      .executeTakeFirst();
    const batch = Number(result.numDeletedRows);
    deleted += batch;
    if (batch < batchSize || options.stopping?.()) return deleted;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
