import type { Kysely } from "kysely";
import { z } from "zod";
import type { Database } from "../db/schema.ts";

/**
 * What every content write needs: the database, and the hook that tells readers the
 * published content changed (PublishedContent.invalidate: clears this process's cache
 * and, on PostgreSQL, notifies the other instances). Called after the write committed.
 */
export interface ContentStore {
  db: Kysely<Database>;
  onChange(): void | Promise<void>;
  /** How long a newsletter notification waits before it is sent (default 2 min; tests shorten it). */
  notificationGraceMs?: number;
}

export async function changed(store: ContentStore): Promise<void> {
  await store.onChange();
}

/** Same-origin absolute paths ("/projects", not "//host") or http(s) URLs. */
export function isSafeLink(value: string): boolean {
  if (value.startsWith("/")) return !value.startsWith("//") && !value.startsWith("/\\");
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** A trimmed link that may be empty (saved as null or ""), else a safe link. */
export const optionalLink = z
  .string()
  .trim()
  .max(2000)
  .refine((value) => value === "" || isSafeLink(value), "Enter a URL starting with http://, https:// or /");

export const requiredLink = z
  .string()
  .trim()
  .min(1, "URL is required")
  .max(2000)
  .refine((value) => isSafeLink(value), "Enter a URL starting with http://, https:// or /");

/** Order index inputs are integers (spec §5). */
export const orderIndex = z.coerce.number().int("Order must be a whole number").min(0).max(1_000_000);

export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | undefined;
  return e?.code === "23505" || (typeof e?.message === "string" && e.message.includes("UNIQUE constraint failed"));
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
