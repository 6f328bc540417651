import { PageTitle } from "~/components/site/page-title";
import { adminPageMeta } from "~/lib/meta";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = () => adminPageMeta("Dashboard");

export default function AdminDashboardPage() {
  return <PageTitle>Dashboard</PageTitle>;
}
