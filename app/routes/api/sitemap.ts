import { servicesContext } from "~/context";
import { buildSitemap, publishedChapterDates } from "../../../server/content/feed.ts";
import { readOnlyAction } from "../../../server/errors.ts";
import type { Route } from "./+types/sitemap";

/** GET /sitemap.xml: the public pages and every published chapter, as absolute URLs. */
export async function loader({ context }: Route.LoaderArgs) {
  const { config, content, db } = context.get(servicesContext);
  const [chapters, dates] = await Promise.all([content.chapters(), publishedChapterDates(db)]);
  return new Response(buildSitemap(config.publicOrigin, chapters, dates), {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": "public, max-age=300, stale-while-revalidate=3600",
    },
  });
}

export const action = readOnlyAction;
