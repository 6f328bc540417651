import type { AppServices } from "../app/context.ts";
import { createPageViewCounter, type PageViewCounter } from "./analytics/page-views.ts";
import { createAuth } from "./auth/auth.ts";
import { enqueuePasswordResetEmail } from "./auth/emails.ts";
import { type Config, resolveAuthSecret } from "./config.ts";
import type { DatabaseHandle } from "./db/connection.ts";
import { prepareDatabase } from "./db/setup.ts";
import type { Logger } from "./logger.ts";

/**
 * Everything long-lived the server needs, created once at start-up in dependency
 * order and closed in reverse order at shutdown.
 */
export interface RunningServices {
  services: AppServices;
  database: DatabaseHandle;
  pageViews: PageViewCounter;
  close(): Promise<void>;
}

export async function startServices(config: Config, logger: Logger): Promise<RunningServices> {
  const secret = resolveAuthSecret(config);
  const database = await prepareDatabase(config.database, logger);
  const { auth, close: closeAuth } = createAuth({
    config,
    database,
    logger,
    secret,
    sendPasswordResetEmail: (reset) => enqueuePasswordResetEmail(database.db, config, reset),
  });

  const pageViews = createPageViewCounter({ db: database.db, logger });

  const services: AppServices = { auth, config, db: database.db, logger };
  return {
    services,
    database,
    pageViews,
    async close() {
      await pageViews.stop();
      await closeAuth();
      await database.close();
    },
  };
}
