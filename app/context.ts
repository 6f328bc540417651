import type { Kysely } from "kysely";
import { createContext } from "react-router";
import type { BastionAuth } from "../server/auth/auth.ts";
import type { Viewer } from "../server/auth/guards.ts";
import type { Config } from "../server/config.ts";
import type { LivePublishedContent } from "../server/content/published.ts";
import type { Database } from "../server/db/schema.ts";
import type { Logger } from "../server/logger.ts";
import type { MailWorker } from "../server/mail/worker.ts";

/** Long-lived services created once at start-up by server/main.ts. */
export interface AppServices {
  auth: BastionAuth;
  config: Config;
  db: Kysely<Database>;
  logger: Logger;
  /** The server's signing secret (AUTH_SECRET or the generated one): keys HMACs such as unsubscribe tokens. */
  secret: string;
  /** Call wake() after committing a change that enqueued email, so it leaves within a second. */
  mail: Pick<MailWorker, "wake">;
  /**
   * Published content for the public pages (a PublishedContent, server/content/types.ts),
   * from the in-process cache. Content services take `content.invalidate` as onChange.
   */
  content: LivePublishedContent;
}

/** Per-request values set by the Express layer. */
export interface RequestValues {
  /** Nonce of this response's Content-Security-Policy; every inline script carries it. */
  cspNonce: string;
}

export const servicesContext = createContext<AppServices>();
/** The signed-in viewer of an admin request, set by the admin layout's guard. */
export const viewerContext = createContext<Viewer>();
export const requestContext = createContext<RequestValues>();
