import { publicPageMeta } from "~/components/public/page-meta";
import { loadReader } from "~/components/reader/load-chapter.server";
import { Reader } from "~/components/reader/reader";
import { servicesContext } from "~/context";
import { mediaLibraryOf } from "../../../server/media/library.ts";
import type { Route } from "./+types/projects";

/** /projects: the first published chapter, or Coming Soon. */
export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  return loadReader(services.content, mediaLibraryOf(services), services.config.publicOrigin, undefined);
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
