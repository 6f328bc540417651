import { data, redirect } from "react-router";
import { publicPageMeta } from "~/components/public/page-meta";
import { Reader } from "~/components/reader/reader";
import { servicesContext } from "~/context";
import { readReader } from "../../../server/content/reader.ts";
import { mediaLibraryOf } from "../../../server/media/library.ts";
import type { Route } from "./+types/projects";

/**
 * /projects: the first published chapter, or Coming Soon. (Should that chapter be
 * renamed or unpublished between the two reads, the answer is its page's: a redirect or a 404.)
 */
export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const sources = { media: mediaLibraryOf(services), logger: services.logger };
  const lookup = await readReader(services.content, sources, services.config.publicOrigin, undefined);
  if (lookup.kind === "redirect") throw redirect(`/projects/${encodeURIComponent(lookup.slug)}`, 301);
  if (lookup.kind === "missing") throw data(null, { status: 404 });
  return lookup.reader;
}

export const meta: Route.MetaFunction = ({ loaderData }) => {
  if (!loaderData) return [];
  const current = loaderData.current;
  return publicPageMeta({
    title: current ? `${current.chapter.title} · Projects & Courses` : "Projects & Courses",
    description: current?.description ?? "Hands-on security projects and step-by-step courses. Coming soon.",
    origin: loaderData.origin,
    path: loaderData.path,
    type: current ? "article" : "website",
  });
};

export default function ProjectsPage({ loaderData }: Route.ComponentProps) {
  return <Reader data={loaderData} />;
}
