import { PageTitle } from "~/components/site/page-title";
import { adminPageMeta } from "~/lib/meta";
import type { Route } from "./+types/home";

export const meta: Route.MetaFunction = () => adminPageMeta("Home Page");

export default function AdminHomePage() {
  return <PageTitle>Home Page</PageTitle>;
}
