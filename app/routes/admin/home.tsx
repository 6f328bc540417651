import { newsletterSettingsIntents } from "~/components/newsletter-admin/settings-actions.server";
import { NewsletterSettingsTab } from "~/components/newsletter-admin/settings-tab";
import { PageTitle } from "~/components/site/page-title";
import { servicesContext } from "~/context";
import { runFormAction } from "~/lib/form-action.server";
import { adminPageMeta } from "~/lib/meta";
import { requireRole } from "../../../server/auth/guards.ts";
import { getNewsletterSettings, getNewsletterStats } from "../../../server/newsletter/admin.ts";
import type { Route } from "./+types/home";

/**
 * /admin/home (editors and admins). The spec's two tabs are Home Page Editor (a later
 * issue) and Newsletter Settings, shown here: the subscriber counters, the email
 * settings and the test email. Changing the settings and sending a test email touch
 * subscriber-facing mail, so their intents require the admin role (like
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

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const viewer = await requireRole(services, request, "editor");
  return runFormAction(await request.formData(), newsletterSettingsIntents(services, viewer), services.logger);
}

export default function AdminHomePage({ loaderData }: Route.ComponentProps) {
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
        <NewsletterSettingsTab stats={stats} settings={settings} canEdit={canEdit} />
      </section>
    </div>
  );
}
