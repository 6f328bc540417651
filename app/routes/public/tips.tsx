import { PageTitle } from "~/components/site/page-title";
import { pageTitle } from "~/lib/meta";
import type { Route } from "./+types/tips";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("Tips & Tricks") }];

export default function TipsPage() {
  return <PageTitle>Tips & Tricks</PageTitle>;
}
