import { publicPageMeta } from "~/components/public/page-meta";
import { loadReader } from "~/components/reader/load-chapter.server";
import { Reader } from "~/components/reader/reader";
import { servicesContext } from "~/context";
import { mediaLibraryOf } from "../../../server/media/library.ts";
import type { Route } from "./+types/chapter";

/** /projects/:slug: a published chapter; a former slug redirects (301); drafts and unknown slugs are 404. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  return loadReader(services.content, mediaLibraryOf(services), services.config.publicOrigin, params.slug);
}

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const current = loaderData?.current;
  if (!loaderData || !current) return [];
  return publicPageMeta({
    title: `${current.chapter.title} · Projects & Courses`,
    description: current.description,
    origin: loaderData.origin,
    path: loaderData.path,
    type: "article",
  });
};

export default function ChapterPage({ loaderData }: Route.ComponentProps) {
  return <Reader data={loaderData} />;
}
