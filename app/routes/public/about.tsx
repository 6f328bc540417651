import { PageTitle } from "~/components/site/page-title";
import { pageTitle } from "~/lib/meta";
import type { Route } from "./+types/about";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("About") }];

export default function AboutPage() {
  return <PageTitle>About</PageTitle>;
}
