import { PageTitle } from "~/components/site/page-title";
import { adminPageMeta } from "~/lib/meta";
import type { Route } from "./+types/tips";

export const meta: Route.MetaFunction = () => adminPageMeta("Tips & Tricks");

export default function AdminTipsPage() {
  return <PageTitle>Tips & Tricks</PageTitle>;
}
