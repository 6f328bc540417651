import { PageTitle } from "~/components/site/page-title";
import { adminPageMeta } from "~/lib/meta";
import type { Route } from "./+types/resources";

export const meta: Route.MetaFunction = () => adminPageMeta("Resources");

export default function AdminResourcesPage() {
  return <PageTitle>Resources</PageTitle>;
}
