import { type Kysely, sql } from "kysely";
import type { Config } from "../config.ts";
import type { Database } from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import { createOwnerSetupLink, deleteOwnerSetupLinks } from "./invitations.ts";
import { passwordProblem } from "./password-policy.ts";
import { type AccountServices, adminExists, createUser, setRole } from "./users.ts";

/**
 * At start-up, makes sure someone can administer the site: nothing to do when an
 * admin exists; otherwise the owner account from ADMIN_EMAIL / ADMIN_PASSWORD /
 * ADMIN_NAME, or, without them, a one-time setup link written to the log.
 */
export async function ensureOwnerAccount(
  services: AccountServices & { config: Config; logger: Logger },
): Promise<{ created?: string; setupUrl?: string }> {
  // Instances started together on a new database would each create the owner, and all
  // but one would fail to start: on PostgreSQL they take turns, and the later ones find
  // the administrator the first one made.
  if (services.config.database.kind !== "postgres") return ensureOwnerAccountNow(services);
  return oneInstanceAtATime(services.db, () => ensureOwnerAccountNow(services));
}

/** Any number that no other advisory lock of the application uses. */
const OWNER_SETUP_LOCK = 4_210_331_007;

/** Runs `work` while holding a PostgreSQL advisory lock (on a connection of its own). */
async function oneInstanceAtATime<T>(db: Kysely<Database>, work: () => Promise<T>): Promise<T> {
  return db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${sql.lit(OWNER_SETUP_LOCK)})`.execute(connection);
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(${sql.lit(OWNER_SETUP_LOCK)})`.execute(connection);
    }
  });
}

async function ensureOwnerAccountNow(
  services: AccountServices & { config: Config; logger: Logger },
): Promise<{ created?: string; setupUrl?: string }> {
  const { config, db, logger } = services;
  if (await adminExists(db)) {
    await deleteOwnerSetupLinks(db);
    return {};
  }

  if (config.admin) {
    const { email, password, name } = config.admin;
    const problem = passwordProblem(password);
    if (problem) throw new Error(`ADMIN_PASSWORD is refused: ${problem}`);
    const context = await services.auth.$context;
    const existing = await context.internalAdapter.findUserByEmail(email.toLowerCase());
    if (existing) {
      // The operator names this existing account as the owner: it becomes an admin; its password stays.
      await setRole(services, { userId: existing.user.id, role: "admin" });
      logger.info({ email: existing.user.email }, "ADMIN_EMAIL names an existing account: it is now an administrator");
      await deleteOwnerSetupLinks(db);
      return { created: existing.user.id };
    }
    const user = await createUser(services, { email, password, name, role: "admin", via: "env" });
    await deleteOwnerSetupLinks(db);
    logger.info({ email: user.email }, "Created the owner account from ADMIN_EMAIL");
    return { created: user.id };
  }

  const { url, expiresAt } = await createOwnerSetupLink(db, config);
  logger.warn(
    { setupUrl: url, expiresAt },
    `No administrator account exists yet. Open this one-time link to create the owner account: ${url} (it expires in 24 hours; restarting the server makes a new one and disables this one).`,
  );
  return { setupUrl: url };
}
