import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { newId } from "../ids.ts";

/** The suppression list: addresses that never receive any email. */

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function isSuppressed(db: Kysely<Database>, email: string): Promise<boolean> {
  const row = await db
    .selectFrom("newsletter_suppressions")
    .select("id")
    .where("email", "=", normalizeEmail(email))
    .executeTakeFirst();
  return row !== undefined;
}

/** Adds the address (once: a second call keeps the first reason). */
export async function addSuppression(db: Kysely<Database>, email: string, reason: string): Promise<void> {
  await db
    .insertInto("newsletter_suppressions")
    .values({ id: newId("suppression"), email: normalizeEmail(email), reason: reason.slice(0, 1000) })
    .onConflict((conflict) => conflict.column("email").doNothing())
    .execute();
}
