import { PageTitle } from "~/components/site/page-title";
import { pageTitle } from "~/lib/meta";
import type { Route } from "./+types/resources";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("Resources") }];

export default function ResourcesPage() {
  return <PageTitle>Resources</PageTitle>;
}
