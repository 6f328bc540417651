import { PageTitle } from "~/components/site/page-title";
import { adminPageMeta } from "~/lib/meta";
import type { Route } from "./+types/about";

export const meta: Route.MetaFunction = () => adminPageMeta("About");

export default function AdminAboutPage() {
  return <PageTitle>About</PageTitle>;
}
