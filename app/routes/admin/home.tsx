import { data } from "react-router";
import { z } from "zod";
import { Feedback, type FeedbackMessage } from "~/components/auth/feedback";
import { NewsletterSettingsCard } from "~/components/newsletter-admin/settings-card";
import { NewsletterStatCards } from "~/components/newsletter-admin/stat-cards";
import { TestEmailCard, type TestEmailFormState } from "~/components/newsletter-admin/test-email-card";
import { PageTitle } from "~/components/site/page-title";
import { servicesContext } from "~/context";
import { adminPageMeta } from "~/lib/meta";
import { requireRole } from "../../../server/auth/guards.ts";
import {
  getNewsletterSettings,
  getNewsletterStats,
  NewsletterSettingError,
  updateNewsletterSettings,
} from "../../../server/newsletter/admin.ts";
import {
  parseTestEmail,
  sendTestEmail,
  TEST_EMAIL_SUCCESS_MESSAGE,
  TestEmailError,
} from "../../../server/newsletter/test-email.ts";
import type { Route } from "./+types/home";

/**
 * /admin/home (editors and admins). The spec's two tabs are Home Page Editor (a later
 * issue) and Newsletter Settings, shown here: the subscriber counters, the email
 * settings and the test email. Changing the settings and sending a test email touch
 * subscriber-facing mail, so the action requires the admin role (like
 * /admin/newsletter); editors see the settings read-only.
 */

export const meta: Route.MetaFunction = () => adminPageMeta("Home Page");

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const viewer = await requireRole(services, request, "editor");
  const [stats, settings] = await Promise.all([getNewsletterStats(services.db), getNewsletterSettings(services.db)]);
  return {
    stats,
    settings: {
      auto_send_enabled: settings.auto_send_enabled ?? "true",
      welcome_email_subject: settings.welcome_email_subject ?? "",
      welcome_email_body: settings.welcome_email_body ?? "",
    },
    canEdit: viewer.roles.isAdmin,
  };
}

const settingsSchema = z.object({
  auto_send_enabled: z
    .literal("true", { message: "auto_send_enabled must be true or false" })
    .optional()
    .transform((value) => (value === "true" ? "true" : "false")),
  welcome_email_subject: z
    .string({ message: "The welcome email subject is required" })
    .transform((value) => value.replace(/\s+/g, " ").trim())
    .pipe(
      z
        .string()
        .min(1, "The welcome email subject is required")
        .max(200, "The welcome email subject must be at most 200 characters"),
    ),
  welcome_email_body: z
    .string({ message: "The welcome email message is required" })
    .trim()
    .min(1, "The welcome email message is required")
    .max(5000, "The welcome email message must be at most 5000 characters"),
});

export interface HomeActionResult {
  intent: "save-settings" | "send-test-email" | "unknown";
  message: FeedbackMessage;
  testEmail?: TestEmailFormState;
}

const text = (value: FormDataEntryValue | undefined) => (typeof value === "string" ? value : undefined);

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  await requireRole(services, request, "admin");
  const form = await request.formData();
  const intent = form.get("intent");

  if (intent === "save-settings") {
    const fail = (detail: string, status: number) =>
      data<HomeActionResult>(
        { intent, message: { tone: "error", title: `Failed to update setting: ${detail}` } },
        { status },
      );
    const parsed = settingsSchema.safeParse({
      auto_send_enabled: text(form.get("auto_send_enabled") ?? undefined),
      welcome_email_subject: text(form.get("welcome_email_subject") ?? undefined),
      welcome_email_body: text(form.get("welcome_email_body") ?? undefined),
    });
    if (!parsed.success) return fail(parsed.error.issues[0]?.message ?? "The form was not understood.", 400);
    try {
      // One update per key, in this order (the spec's "Save Newsletter Settings").
      await updateNewsletterSettings(services.db, [
        ["auto_send_enabled", parsed.data.auto_send_enabled],
        ["welcome_email_subject", parsed.data.welcome_email_subject],
        ["welcome_email_body", parsed.data.welcome_email_body],
      ]);
    } catch (error) {
      if (!(error instanceof NewsletterSettingError)) throw error;
      services.logger.error({ err: error, key: error.key }, "newsletter setting update failed");
      return fail(error.message, 500);
    }
    return data<HomeActionResult>({ intent, message: { tone: "success", title: "Setting updated successfully!" } });
  }

  if (intent === "send-test-email") {
    const values = {
      email: text(form.get("email") ?? undefined),
      post_title: text(form.get("post_title") ?? undefined),
      post_summary: text(form.get("post_summary") ?? undefined),
      post_url: text(form.get("post_url") ?? undefined),
    };
    const kept: TestEmailFormState = {
      email: values.email?.slice(0, 254),
      post_title: values.post_title?.slice(0, 300),
      post_summary: values.post_summary?.slice(0, 5000),
      post_url: values.post_url?.slice(0, 2000),
    };
    const parsed = parseTestEmail(values);
    if (!parsed.success) {
      // The recipient's own messages ("Please enter a test email address") show as they are.
      const recipient = !values.email?.trim() || !z.email().safeParse(values.email.trim()).success;
      return data<HomeActionResult>(
        {
          intent,
          message: {
            tone: "error",
            title: recipient ? parsed.message : `Failed to send test email: ${parsed.message}`,
          },
          testEmail: { ...kept, error: recipient ? parsed.message : undefined },
        },
        { status: 400 },
      );
    }
    try {
      await sendTestEmail(services.db, services, parsed.data);
    } catch (error) {
      const detail = error instanceof TestEmailError ? error.message : "The email could not be queued.";
      if (!(error instanceof TestEmailError)) services.logger.error({ err: error }, "test email failed");
      return data<HomeActionResult>(
        { intent, message: { tone: "error", title: `Failed to send test email: ${detail}` }, testEmail: kept },
        { status: error instanceof TestEmailError ? 400 : 500 },
      );
    }
    services.mail.wake();
    return data<HomeActionResult>({ intent, message: { tone: "success", title: TEST_EMAIL_SUCCESS_MESSAGE } });
  }

  return data<HomeActionResult>(
    { intent: "unknown", message: { tone: "error", title: "The form was not understood. Please try again." } },
    { status: 400 },
  );
}

export default function AdminHomePage({ loaderData, actionData }: Route.ComponentProps) {
  const { stats, settings, canEdit } = loaderData;
  return (
    <div className="flex flex-col gap-8">
      <div>
        <PageTitle>Home Page</PageTitle>
        <p className="mt-2 text-fg-muted">The newsletter's counters and settings, and a test email.</p>
      </div>
      <section aria-labelledby="newsletter-settings-heading" className="flex flex-col gap-6">
        <h2 id="newsletter-settings-heading" className="text-xl font-semibold tracking-tight text-fg">
          Newsletter Settings
        </h2>
        <Feedback message={actionData?.message} />
        <NewsletterStatCards stats={stats} cards={["total", "active", "pending", "newThisWeek"]} />
        <div className="grid gap-6 lg:grid-cols-2">
          <NewsletterSettingsCard settings={settings} canEdit={canEdit} />
          {canEdit && (
            <TestEmailCard
              form={actionData?.intent === "send-test-email" ? actionData.testEmail : undefined}
              formKey={actionData?.intent === "send-test-email" ? actionData : undefined}
            />
          )}
        </div>
      </section>
    </div>
  );
}
