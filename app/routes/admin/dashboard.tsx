import { GettingStarted } from "~/components/admin/dashboard/getting-started";
import { PageViewsChart } from "~/components/admin/dashboard/page-views-chart";
import { StatCards } from "~/components/admin/dashboard/stat-cards";
import { PageTitle } from "~/components/site/page-title";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { servicesContext } from "~/context";
import { adminPageMeta } from "~/lib/meta";
import { useAuth } from "~/lib/use-auth";
import { getDashboardStats } from "../../../server/dashboard/stats.ts";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = () => adminPageMeta("Dashboard");

export async function loader({ context }: Route.LoaderArgs) {
  return getDashboardStats(context.get(servicesContext).db);
}

export default function AdminDashboardPage({ loaderData: stats }: Route.ComponentProps) {
  const { user, isAdmin } = useAuth();
  return (
    <div className="flex flex-col gap-8">
      <div>
        <PageTitle>Welcome back, {user.name.trim() || "Admin"}</PageTitle>
        <p className="mt-3">
          <Badge tone="success" data-testid="role-label">
            {isAdmin ? "Administrator" : "Editor"}
          </Badge>
        </p>
      </div>

      <section aria-labelledby="dashboard-overview">
        <h2 id="dashboard-overview" className="sr-only">
          Overview
        </h2>
        <StatCards counters={stats} />
      </section>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Page views</CardTitle>
            <CardDescription>Public pages, per day, over the last 30 days (UTC).</CardDescription>
          </CardHeader>
          <CardContent>
            <PageViewsChart days={stats.pageViewsByDay} />
          </CardContent>
        </Card>
        <GettingStarted />
      </div>
    </div>
  );
}
