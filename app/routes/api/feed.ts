import { servicesContext } from "~/context";
import { buildAtomFeed, feedEntries, publishedChapterDates } from "../../../server/content/feed.ts";
import { readOnlyAction } from "../../../server/errors.ts";
import type { Route } from "./+types/feed";

/** GET /feed.xml: an Atom feed of the published chapters, tips and resources, newest first. */
export async function loader({ context }: Route.LoaderArgs) {
  const { config, content, db } = context.get(servicesContext);
  const [chapters, chapterDates, tips, resources] = await Promise.all([
    content.chapters(),
    publishedChapterDates(db),
    content.tips(),
    content.resources(),
  ]);
  const entries = feedEntries(config.publicOrigin, { chapters, chapterDates, tips, resources });
  return new Response(buildAtomFeed(config.publicOrigin, entries), {
    headers: {
      "Content-Type": "application/atom+xml; charset=utf-8",
      "Cache-Control": "public, max-age=300, stale-while-revalidate=3600",
    },
  });
}

export const action = readOnlyAction;
