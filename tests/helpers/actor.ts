import type { Kysely } from "kysely";
import type { Database } from "../../server/db/schema.ts";

/**
 * Adds the account that the services' writes in a test are attributed to (the audit
 * log's user), straight into Better Auth's user table.
 */
export async function insertActor(db: Kysely<Database>, actor: { id: string; email: string }): Promise<void> {
  const now = new Date().toISOString();
  // Better Auth's user table is not in the app's schema types: the columns written here.
  await db
    .withTables<{
      user: { id: string; email: string; name: string; emailVerified: boolean; createdAt: string; updatedAt: string };
    }>()
    .insertInto("user")
    .values({ ...actor, name: "Eddie Editor", emailVerified: true, createdAt: now, updatedAt: now })
    .execute();
}
