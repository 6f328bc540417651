import { PageTitle } from "~/components/site/page-title";
import { adminPageMeta } from "~/lib/meta";
import type { Route } from "./+types/projects";

export const meta: Route.MetaFunction = () => adminPageMeta("Projects & Courses");

export default function AdminProjectsPage() {
  return <PageTitle>Projects & Courses</PageTitle>;
}
