import type { Kysely } from "kysely";
import { type Database, toJson } from "../db/schema.ts";
import { newId } from "../ids.ts";

/** The audit_log table: who did what, when. The only writer of that table. */

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

/** Failed sign-ins for one email address since a moment, for the per-account limit. */
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
