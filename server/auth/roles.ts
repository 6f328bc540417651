import type { Kysely } from "kysely";
import type { Database, ROLES } from "../db/schema.ts";
import type { Logger } from "../logger.ts";

/** The user_roles table (the spec). The only writer of that table. */

export type Role = (typeof ROLES)[number];

export interface UserRoles {
  isAdmin: boolean;
  /** True for editors and admins: both may manage content. */
  isEditor: boolean;
}

const NO_ROLES: UserRoles = { isAdmin: false, isEditor: false };

/**
 * The user's roles. A failed lookup counts as no role at all (the spec: access is
 * denied), and is logged, since an outage would otherwise look like a missing role.
 */
export async function getUserRoles(
  services: { db: Kysely<Database>; logger: Pick<Logger, "error"> },
  userId: string,
): Promise<UserRoles> {
  try {
    const rows = await services.db.selectFrom("user_roles").select("role").where("user_id", "=", userId).execute();
    const roles = new Set(rows.map((row) => row.role));
    return { isAdmin: roles.has("admin"), isEditor: roles.has("admin") || roles.has("editor") };
  } catch (error) {
    services.logger.error({ err: error, userId }, "Role lookup failed: access denied");
    return NO_ROLES;
  }
}

/**
 * Gives the user exactly this role (or none), replacing what they had. `db` may be a
 * transaction of the caller's (which then decides when it commits).
 */
export async function setUserRole(db: Kysely<Database>, userId: string, role: Role | null): Promise<void> {
  const replace = async (trx: Kysely<Database>) => {
    await trx.deleteFrom("user_roles").where("user_id", "=", userId).execute();
    if (role) {
      await trx
        .insertInto("user_roles")
        .values({ user_id: userId, role, created_at: new Date().toISOString() })
        .execute();
    }
  };
  if (db.isTransaction) await replace(db);
  else await db.transaction().execute(replace);
}

/**
 * Runs `change` in a transaction that first locks every admin row, so that two
 * concurrent changes cannot each remove "the other" admin (PostgreSQL); SQLite
 * serialises transactions anyway. `change` throws to refuse. A role read before this
 * may be stale by the time the lock is held: `change` decides from what it reads
 * through `trx` (roleOf, countOtherAdmins).
 */
export async function withAdminRowsLocked(
  db: Kysely<Database>,
  change: (trx: Kysely<Database>) => Promise<void>,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // A no-op update takes the rows' write locks (SELECT … FOR UPDATE is PostgreSQL-only).
    await trx
      .updateTable("user_roles")
      .set((eb) => ({ created_at: eb.ref("created_at") }))
      .where("role", "=", "admin")
      .execute();
    await change(trx);
  });
}

/** The user's role as the account services report it: admin if they hold it, else their other role, or null. */
export async function roleOf(db: Kysely<Database>, userId: string): Promise<Role | null> {
  const rows = await db.selectFrom("user_roles").select("role").where("user_id", "=", userId).execute();
  return rows.some((row) => row.role === "admin") ? "admin" : (rows[0]?.role ?? null);
}

/** How many admins there are besides this user. */
export async function countOtherAdmins(db: Kysely<Database>, userId: string): Promise<number> {
  const row = await db
    .selectFrom("user_roles")
    .select((eb) => eb.fn.countAll<number>().as("admins"))
    .where("role", "=", "admin")
    .where("user_id", "!=", userId)
    .executeTakeFirstOrThrow();
  return Number(row.admins);
}
