import ipaddr from "ipaddr.js";
import { type Kysely, sql } from "kysely";
import type { Database } from "./db/schema.ts";

/**
 * A fixed-window rate limiter stored in `request_limits`, so that it holds across
 * instances. One atomic upsert per hit: a window that has ended starts again at 1.
 */
export interface LimitResult {
  allowed: boolean;
  /** Seconds until the window ends (0 when allowed). */
  retryAfterSeconds: number;
}

export async function hitLimit(
  db: Kysely<Database>,
  key: string,
  limit: number,
  windowMs: number,
  now: Date = new Date(),
): Promise<LimitResult> {
  const nowIso = now.toISOString();
  const cutoff = new Date(now.getTime() - windowMs).toISOString();
  const row = await db
    .insertInto("request_limits")
    .values({ key, count: 1, window_started_at: nowIso })
    .onConflict((conflict) =>
      conflict.column("key").doUpdateSet({
        count: sql<number>`case when request_limits.window_started_at <= ${cutoff} then 1 else request_limits.count + 1 end`,
        window_started_at: sql<string>`case when request_limits.window_started_at <= ${cutoff} then excluded.window_started_at else request_limits.window_started_at end`,
      }),
    )
    .returning(["count", "window_started_at"])
    .executeTakeFirstOrThrow();
  const count = Number(row.count);
  if (count <= limit) return { allowed: true, retryAfterSeconds: 0 };
  const endsAt = new Date(row.window_started_at).getTime() + windowMs;
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((endsAt - now.getTime()) / 1000)) };
}

/** The hits counted so far in the key's current window (0 when none or when it has ended); counts none. */
export async function currentHits(
  db: Kysely<Database>,
  key: string,
  windowMs: number,
  now: Date = new Date(),
): Promise<number> {
  const row = await db
    .selectFrom("request_limits")
    .select(["count", "window_started_at"])
    .where("key", "=", key)
    .executeTakeFirst();
  if (!row || new Date(row.window_started_at).getTime() <= now.getTime() - windowMs) return 0;
  return Number(row.count);
}

/** How much of an IPv6 address names one client: the /64 a network gives each host or home. */
const IPV6_CLIENT_PREFIX_LENGTH = 64;

/**
 * The client an address stands for, for keys of limits per address. One IPv6 host
 * holds a whole /64 and may send each request from a new address in it (privacy
 * addresses do so by design), so a limit per address would never hold: an IPv6
 * address counts as its /64, as in Better Auth's own limiter. An IPv4 address seen
 * through a dual-stack socket (::ffff:a.b.c.d) counts as the IPv4 address: its /64
 * would put every IPv4 client under one key. Anything else ("unknown") is kept.
 */
export function limitedAddress(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const kept = IPV6_CLIENT_PREFIX_LENGTH / 16;
  const parts = (parsed as ipaddr.IPv6).parts.map((part, index) => (index < kept ? part : 0));
  return `${new ipaddr.IPv6(parts).toString()}/${IPV6_CLIENT_PREFIX_LENGTH}`;
}
