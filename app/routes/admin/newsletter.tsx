import { data, useLocation } from "react-router";
import { z } from "zod";
import { Feedback, type FeedbackMessage } from "~/components/auth/feedback";
import { ActiveSubscribersChart } from "~/components/newsletter-admin/active-chart";
import { EmailLogTab } from "~/components/newsletter-admin/email-log-tab";
import { NEWSLETTER_TABS, TabLinks } from "~/components/newsletter-admin/shared";
import { NewsletterStatCards } from "~/components/newsletter-admin/stat-cards";
import { SubscribersTab } from "~/components/newsletter-admin/subscribers-tab";
import { SuppressionsTab } from "~/components/newsletter-admin/suppressions-tab";
import { PageTitle } from "~/components/site/page-title";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { servicesContext } from "~/context";
import { adminPageMeta } from "~/lib/meta";
import { requireRole } from "../../../server/auth/guards.ts";
import { SUBSCRIBER_STATUSES } from "../../../server/db/schema.ts";
import { countEmailsByStatus, listRecentEmails, retryEmail } from "../../../server/mail/outbox.ts";
import {
  activeSubscribersByDay,
  addSuppression,
  deleteSubscriber,
  getNewsletterStats,
  listSubscribers,
  listSuppressions,
  removeSuppression,
} from "../../../server/newsletter/admin.ts";
import { listNotificationsWithProgress } from "../../../server/newsletter/notifications.ts";
import { resendConfirmation } from "../../../server/newsletter/subscribers.ts";
import type { Route } from "./+types/newsletter";

/**
 * /admin/newsletter (admins only): the counters, then three tabs chosen by `?tab=`
 * (links, so they work without JavaScript): Subscribers (search, status filter, 50 a
 * page, resend confirmation, delete, CSV export), Suppression List (remove, add by
 * hand) and the Email log (recent outbox rows, retry of failed ones). Every loader
 * and action checks the admin role itself, whatever the layout's guard did.
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

const id = z.string().trim().min(1, "A record id is required").max(200);

const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("delete-subscriber"), id }),
  z.object({ intent: z.literal("resend-confirmation"), id }),
  z.object({ intent: z.literal("remove-suppression"), id }),
  z.object({
    intent: z.literal("add-suppression"),
    email: z
      .string()
      .trim()
      .max(320, "The email address is too long")
      .pipe(z.email({ message: "Please enter a valid email address" })),
    reason: z.string().trim().max(500, "The reason must be at most 500 characters").optional().default(""),
  }),
  z.object({ intent: z.literal("retry-email"), id }),
]);

export interface NewsletterActionResult {
  intent?: string;
  message: FeedbackMessage;
  /** The add-suppression form after a refusal. */
  suppressionForm?: { email: string; reason: string; error: string };
}

const FAILURES: Record<z.infer<typeof actionSchema>["intent"], FeedbackMessage> = {
  "delete-subscriber": { tone: "error", title: "Error", description: "Failed to delete subscriber." },
  "resend-confirmation": { tone: "error", title: "Error", description: "Failed to resend confirmation email." },
  "remove-suppression": { tone: "error", title: "Error", description: "Failed to remove from suppression list." },
  "add-suppression": { tone: "error", title: "Error", description: "Failed to add to suppression list." },
  "retry-email": { tone: "error", title: "Error", description: "Failed to retry email." },
};

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  await requireRole(services, request, "admin");
  const form = Object.fromEntries(await request.formData());
  const parsed = actionSchema.safeParse(form);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const description = issue?.message ?? "The form was not understood. Please try again.";
    const result: NewsletterActionResult = {
      intent: typeof form.intent === "string" ? form.intent : undefined,
      message: { tone: "error", title: "Error", description },
    };
    if (form.intent === "add-suppression") {
      result.suppressionForm = {
        email: typeof form.email === "string" ? form.email.slice(0, 320) : "",
        reason: typeof form.reason === "string" ? form.reason.slice(0, 500) : "",
        error: description,
      };
    }
    return data(result, { status: 400 });
  }
  const input = parsed.data;
  const fail = (status: number) =>
    data<NewsletterActionResult>({ intent: input.intent, message: FAILURES[input.intent] }, { status });
  const ok = (title: string, description: string) =>
    data<NewsletterActionResult>({ intent: input.intent, message: { tone: "success", title, description } });
  try {
    switch (input.intent) {
      case "delete-subscriber":
        if (!(await deleteSubscriber(services.db, input.id))) return fail(404);
        return ok("Subscriber deleted", "The subscriber has been removed successfully.");
      case "resend-confirmation":
        if (!(await resendConfirmation(services.db, services, input.id))) return fail(409);
        services.mail.wake();
        return ok("Confirmation email sent", "A new confirmation email has been sent.");
      case "remove-suppression":
        if (!(await removeSuppression(services.db, input.id))) return fail(404);
        return ok("Removed from suppression list", "The email has been removed from the suppression list.");
      case "add-suppression": {
        const added = await addSuppression(services.db, {
          email: input.email,
          reason: input.reason || "Added by an administrator",
        });
        return added.created
          ? ok("Added to suppression list", `${added.email} will not receive any email.`)
          : ok("Already suppressed", `${added.email} is already on the suppression list.`);
      }
      case "retry-email":
        if (!(await retryEmail(services.db, input.id))) return fail(409);
        services.mail.wake();
        return ok("Email queued", "The email will be sent again.");
    }
  } catch (error) {
    services.logger.error({ err: error, intent: input.intent }, "newsletter admin action failed");
    return fail(500);
  }
}

export default function AdminNewsletterPage({ loaderData, actionData }: Route.ComponentProps) {
  const location = useLocation();
  const search = new URLSearchParams(location.search);
  const { stats, tab, query } = loaderData;
  return (
    <div className="flex flex-col gap-8">
      <div>
        <PageTitle>Newsletter</PageTitle>
        <p className="mt-2 text-fg-muted">Subscribers, the suppression list and the emails sent by the site.</p>
      </div>
      <Feedback message={actionData?.message} />
      <NewsletterStatCards stats={stats} />
      <Card>
        <CardHeader>
          <CardTitle>Active subscribers</CardTitle>
        </CardHeader>
        <CardContent>
          <ActiveSubscribersChart days={loaderData.activeByDay} />
        </CardContent>
      </Card>
      <TabLinks current={tab} />
      {"subscribers" in loaderData && loaderData.subscribers && (
        <SubscribersTab result={loaderData.subscribers} query={query} search={search} canResend />
      )}
      {"suppressions" in loaderData && loaderData.suppressions && (
        <SuppressionsTab
          result={loaderData.suppressions}
          search={search}
          form={
            actionData?.suppressionForm
              ? { ...actionData.suppressionForm, key: actionData }
              : { key: actionData?.intent === "add-suppression" ? actionData : "add" }
          }
        />
      )}
      {"emails" in loaderData && loaderData.emails && (
        <EmailLogTab
          emails={loaderData.emails}
          counts={loaderData.emailCounts}
          notifications={loaderData.notifications}
        />
      )}
    </div>
  );
}
