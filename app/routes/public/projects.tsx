import { PageTitle } from "~/components/site/page-title";
import { pageTitle } from "~/lib/meta";
import type { Route } from "./+types/projects";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("Projects & Courses") }];

export default function ProjectsPage() {
  return <PageTitle>Projects & Courses</PageTitle>;
}
