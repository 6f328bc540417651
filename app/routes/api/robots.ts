import { servicesContext } from "~/context";
import { buildRobots } from "../../../server/content/feed.ts";
import { readOnlyAction } from "../../../server/errors.ts";
import type { Route } from "./+types/robots";

/** GET /robots.txt: everything but the admin and sign-in areas, and where the sitemap is. */
export function loader({ context }: Route.LoaderArgs) {
  const { config } = context.get(servicesContext);
  return new Response(buildRobots(config.publicOrigin), {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}

export const action = readOnlyAction;
