import { servicesContext } from "~/context";
import type { Route } from "./+types/not-found";

/**
 * Any other path under /api, whatever the method: a JSON 404 for the program that
 * called it, not the public site's page, and the path logged as a missing page's is.
 */
export function loader({ request, context }: Route.LoaderArgs) {
  context
    .get(servicesContext)
    .logger.warn({ method: request.method, path: new URL(request.url).pathname }, "API endpoint not found");
  return Response.json({ error: "Not found" }, { status: 404, headers: { "Cache-Control": "no-store" } });
}

export const action = loader;
