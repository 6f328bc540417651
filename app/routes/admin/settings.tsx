import { PageTitle } from "~/components/site/page-title";
import { adminPageMeta } from "~/lib/meta";
import type { Route } from "./+types/settings";

export const meta: Route.MetaFunction = () => adminPageMeta("Site Settings");

export default function AdminSettingsPage() {
  return <PageTitle>Site Settings</PageTitle>;
}
