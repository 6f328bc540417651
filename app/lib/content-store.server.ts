import type { RouterContextProvider } from "react-router";
import { servicesContext, viewerContext } from "~/context";
import type { ContentStore } from "../../server/content/store.ts";
import { sectionImageOrigins } from "../../server/media/storage/index.ts";

/**
 * The content store of an admin request: the database, the signed-in viewer as the
 * author of the audit rows, and the published-content cache to invalidate after each
 * write (on every instance), and the origins image sections may show. The admin
 * layout's guard has set the viewer already.
 */
export function contentStoreFor(context: Readonly<RouterContextProvider>): ContentStore {
  const services = context.get(servicesContext);
  const viewer = context.get(viewerContext);
  return {
    db: services.db,
    actorId: viewer.user.id,
    onChange: () => services.content.invalidate(),
    imageOrigins: sectionImageOrigins(services.config),
  };
}
