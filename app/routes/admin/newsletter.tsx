import { useLocation } from "react-router";
import { z } from "zod";
import { toastActionAnswer } from "~/components/forms/toast-action-answer";
import { newsletterAction } from "~/components/newsletter-admin/actions.server";
import { ActiveSubscribersChart } from "~/components/newsletter-admin/active-chart";
import { EmailLogTab } from "~/components/newsletter-admin/email-log-tab";
import { NEWSLETTER_TABS, NewsletterTabs } from "~/components/newsletter-admin/newsletter-tabs";
import { NewsletterStatCards } from "~/components/newsletter-admin/stat-cards";
import { SubscribersTab } from "~/components/newsletter-admin/subscribers-tab";
import { SuppressionsTab } from "~/components/newsletter-admin/suppressions-tab";
import { PageTitle } from "~/components/site/page-title";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { servicesContext } from "~/context";
import { requireRole } from "~/lib/guards.server";
import { adminPageMeta } from "~/lib/meta";
import { readForm } from "~/lib/read-form.server";
import { SUBSCRIBER_STATUSES } from "../../../server/db/schema.ts";
import { countEmailsByStatus, listRecentEmails } from "../../../server/mail/outbox.ts";
import {
  activeSubscribersByDay,
  getNewsletterStats,
  listSubscribers,
  listSuppressions,
} from "../../../server/newsletter/admin.ts";
import { listNotificationsWithProgress } from "../../../server/newsletter/notifications.ts";
import type { Route } from "./+types/newsletter";

/**
 * /admin/newsletter (admins only): the counters, then three tabs chosen by `?tab=`
 * (the URL is the tab's source of truth, so links and reloads keep it): Subscribers
 * (search, status filter, 50 a page, resend confirmation, delete, CSV export),
 * Suppression List (remove, add by hand) and the Email log (recent outbox rows, retry
 * of failed ones). Every loader and action checks the admin role itself, whatever
 * the layout's guard did.
 */

export const meta: Route.MetaFunction = () => adminPageMeta("Newsletter");

const EMAIL_LOG_LIMIT = 100;

/** The query string: anything unknown or malformed falls back to its default. */
const querySchema = z.object({
  tab: z.enum(NEWSLETTER_TABS.map((tab) => tab.id) as ["subscribers", "suppressions", "emails"]).catch("subscribers"),
  q: z
    .string()
    .catch("")
    .transform((value) => value.trim().slice(0, 320)),
  status: z.enum(SUBSCRIBER_STATUSES).or(z.literal("")).catch(""),
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
});

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  await requireRole(services, request, "admin");
  const url = new URL(request.url);
  const query = querySchema.parse(Object.fromEntries(url.searchParams));
  const [stats, activeByDay] = await Promise.all([
    getNewsletterStats(services.db),
    activeSubscribersByDay(services.db),
  ]);
  const base = { stats, activeByDay, tab: query.tab, query: { q: query.q, status: query.status } };
  switch (query.tab) {
    case "subscribers":
      return {
        ...base,
        subscribers: await listSubscribers(services.db, {
          search: query.q,
          status: query.status || undefined,
          page: query.page,
        }),
      };
    case "suppressions":
      return { ...base, suppressions: await listSuppressions(services.db, { page: query.page }) };
    case "emails": {
      const [emails, counts, notifications] = await Promise.all([
        listRecentEmails(services.db, { limit: EMAIL_LOG_LIMIT }),
        countEmailsByStatus(services.db),
        listNotificationsWithProgress(services.db),
      ]);
      return { ...base, emails, emailCounts: counts, notifications };
    }
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  await requireRole(services, request, "admin");
  return newsletterAction(services, await readForm(request));
}

export const clientAction = toastActionAnswer;

export default function AdminNewsletterPage({ loaderData }: Route.ComponentProps) {
  const location = useLocation();
  const search = new URLSearchParams(location.search);
  const { stats, tab, query } = loaderData;
  return (
    <div className="flex flex-col gap-8">
      <div>
        <PageTitle>Newsletter</PageTitle>
        <p className="mt-2 text-fg-muted">Subscribers, the suppression list and the emails sent by the site.</p>
      </div>
      <NewsletterStatCards stats={stats} />
      <Card>
        <CardHeader>
          <CardTitle>Active subscribers</CardTitle>
        </CardHeader>
        <CardContent>
          <ActiveSubscribersChart days={loaderData.activeByDay} />
        </CardContent>
      </Card>
      <NewsletterTabs current={tab}>
        {"subscribers" in loaderData && loaderData.subscribers && (
          <SubscribersTab result={loaderData.subscribers} query={query} search={search} />
        )}
        {"suppressions" in loaderData && loaderData.suppressions && (
          <SuppressionsTab result={loaderData.suppressions} search={search} />
        )}
        {"emails" in loaderData && loaderData.emails && (
          <EmailLogTab
            emails={loaderData.emails}
            counts={loaderData.emailCounts}
            notifications={loaderData.notifications}
          />
        )}
      </NewsletterTabs>
    </div>
  );
}
