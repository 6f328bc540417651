import { type Kysely, sql } from "kysely";

/**
 * The tables Better Auth 1.7.7 uses for our configuration (email and password,
 * plugins twoFactor, passkey and jwt, rate limiting stored in the database),
 * created exactly as Better Auth's own `getMigrations()` would create them, column
 * for column, so that Better Auth, once plugged onto them, finds nothing to add.
 *
 * Better Auth names things its own way: camelCase columns and a table called
 * "user" (Kysely quotes every identifier). Its types per dialect:
 * - text ids and strings (`text` on both);
 * - booleans: `boolean` on PostgreSQL, `integer` 0/1 on SQLite;
 * - dates: `timestamptz` on PostgreSQL; on SQLite a column declared `date` holding
 *   ISO-8601 text that Better Auth writes and parses itself;
 * - numbers: `integer`, and `bigint` for rateLimit.lastRequest (milliseconds).
 * Only PostgreSQL gets column defaults (CURRENT_TIMESTAMP on the creation/update
 * times Better Auth fills in itself); SQLite gets none. Every foreign key points to
 * "user"."id" and cascades on delete.
 *
 * If Better Auth or its configuration changes, compare against
 * `getMigrations(options).compileMigrations()` on an empty database of each dialect
 * and add a new migration; never edit this one once released.
 */

/** The tables, in an order that drops them safely (those referencing "user" first). */
export const BETTER_AUTH_TABLES = [
  "rateLimit",
  "jwks",
  "passkey",
  "twoFactor",
  "verification",
  "account",
  "session",
  "user",
] as const;

export async function createBetterAuthTables(db: Kysely<unknown>, dialect: "sqlite" | "postgres"): Promise<void> {
  const postgres = dialect === "postgres";
  const date = postgres ? "timestamptz" : "date";
  const boolean = postgres ? "boolean" : "integer";
  /** Creation/update times: PostgreSQL only gets a database default, as Better Auth does. */
  const now = postgres ? sql`CURRENT_TIMESTAMP` : undefined;

  await db.schema
    .createTable("user")
    .addColumn("id", "text", (c) => c.primaryKey().notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("emailVerified", boolean, (c) => c.notNull())
    .addColumn("image", "text")
    .addColumn("createdAt", date, (c) => (now ? c.notNull().defaultTo(now) : c.notNull()))
    .addColumn("updatedAt", date, (c) => (now ? c.notNull().defaultTo(now) : c.notNull()))
    .addColumn("twoFactorEnabled", boolean)
    .execute();

  await db.schema
    .createTable("session")
    .addColumn("id", "text", (c) => c.primaryKey().notNull())
    .addColumn("expiresAt", date, (c) => c.notNull())
    .addColumn("token", "text", (c) => c.notNull().unique())
    .addColumn("createdAt", date, (c) => (now ? c.notNull().defaultTo(now) : c.notNull()))
    .addColumn("updatedAt", date, (c) => c.notNull())
    .addColumn("ipAddress", "text")
    .addColumn("userAgent", "text")
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .execute();

  await db.schema
    .createTable("account")
    .addColumn("id", "text", (c) => c.primaryKey().notNull())
    .addColumn("accountId", "text", (c) => c.notNull())
    .addColumn("providerId", "text", (c) => c.notNull())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("accessToken", "text")
    .addColumn("refreshToken", "text")
    .addColumn("idToken", "text")
    .addColumn("accessTokenExpiresAt", date)
    .addColumn("refreshTokenExpiresAt", date)
    .addColumn("scope", "text")
    .addColumn("password", "text")
    .addColumn("createdAt", date, (c) => (now ? c.notNull().defaultTo(now) : c.notNull()))
    .addColumn("updatedAt", date, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("verification")
    .addColumn("id", "text", (c) => c.primaryKey().notNull())
    .addColumn("identifier", "text", (c) => c.notNull())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("expiresAt", date, (c) => c.notNull())
    .addColumn("createdAt", date, (c) => (now ? c.notNull().defaultTo(now) : c.notNull()))
    .addColumn("updatedAt", date, (c) => (now ? c.notNull().defaultTo(now) : c.notNull()))
    .execute();

  await db.schema
    .createTable("twoFactor")
    .addColumn("id", "text", (c) => c.primaryKey().notNull())
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("backupCodes", "text", (c) => c.notNull())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("verified", boolean)
    .addColumn("failedVerificationCount", "integer")
    .addColumn("lockedUntil", date)
    .execute();

  await db.schema
    .createTable("passkey")
    .addColumn("id", "text", (c) => c.primaryKey().notNull())
    .addColumn("name", "text")
    .addColumn("publicKey", "text", (c) => c.notNull())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("credentialID", "text", (c) => c.notNull())
    .addColumn("counter", "integer", (c) => c.notNull())
    .addColumn("deviceType", "text", (c) => c.notNull())
    .addColumn("backedUp", boolean, (c) => c.notNull())
    .addColumn("transports", "text")
    .addColumn("createdAt", date)
    .addColumn("aaguid", "text")
    .execute();

  await db.schema
    .createTable("jwks")
    .addColumn("id", "text", (c) => c.primaryKey().notNull())
    .addColumn("publicKey", "text", (c) => c.notNull())
    .addColumn("privateKey", "text", (c) => c.notNull())
    .addColumn("createdAt", date, (c) => c.notNull())
    .addColumn("expiresAt", date)
    .addColumn("alg", "text")
    .addColumn("crv", "text")
    .execute();

  await db.schema
    .createTable("rateLimit")
    .addColumn("id", "text", (c) => c.primaryKey().notNull())
    .addColumn("key", "text", (c) => c.notNull().unique())
    .addColumn("count", "integer", (c) => c.notNull())
    .addColumn("lastRequest", "bigint", (c) => c.notNull())
    .execute();

  // Better Auth's index names: <table>_<column>_idx.
  const indexes: Array<[table: string, column: string]> = [
    ["session", "userId"],
    ["account", "userId"],
    ["verification", "identifier"],
    ["twoFactor", "secret"],
    ["twoFactor", "userId"],
    ["passkey", "userId"],
    ["passkey", "credentialID"],
  ];
  for (const [table, column] of indexes) {
    await db.schema.createIndex(`${table}_${column}_idx`).on(table).column(column).execute();
  }
}
