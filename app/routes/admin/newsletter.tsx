import { PageTitle } from "~/components/site/page-title";
import { adminPageMeta } from "~/lib/meta";
import type { Route } from "./+types/newsletter";

export const meta: Route.MetaFunction = () => adminPageMeta("Newsletter");

export default function AdminNewsletterPage() {
  return <PageTitle>Newsletter</PageTitle>;
}
