import { toastActionAnswer } from "~/components/forms/toast-action-answer";
import { HomePageEditor } from "~/components/home-admin/home-page-editor";
import { homePageIntents } from "~/components/home-admin/intents.server";
import { newsletterSettingsIntents } from "~/components/newsletter-admin/settings-actions.server";
import { NewsletterSettingsTab } from "~/components/newsletter-admin/settings-tab";
import { PageHeader } from "~/components/ui/page-header";
import { skipRevalidationForTabs, UrlTabs } from "~/components/ui/url-tabs";
import { servicesContext } from "~/context";
import { contentStoreFor } from "~/lib/content-store.server";
import { runFormAction } from "~/lib/form-action.server";
import { requireRole } from "~/lib/guards.server";
import { adminPageMeta } from "~/lib/meta";
import { readForm } from "~/lib/read-form.server";
import { getHomeContentForEditor } from "../../../server/content/home.ts";
import { getNewsletterStats } from "../../../server/newsletter/admin.ts";
import { getNewsletterSettingsForEditor } from "../../../server/newsletter/settings.ts";
import type { Route } from "./+types/home";

/**
 * /admin/home (editors and admins), in two tabs: the Home Page Editor, and the
 * Newsletter Settings (the subscriber counters, the email settings and the test
 * email). Changing the newsletter settings and sending a test email touch
 * subscriber-facing mail, so their intents require the admin role (like
 * /admin/newsletter); editors see them read-only.
 */

export const meta: Route.MetaFunction = () => adminPageMeta("Home Page");

const TABS = [
  { id: "editor", label: "Home Page Editor" },
  { id: "newsletter", label: "Newsletter Settings" },
] as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const viewer = await requireRole(services, request, "editor");
  const [content, stats, settings] = await Promise.all([
    getHomeContentForEditor(services.db),
    getNewsletterStats(services.db),
    getNewsletterSettingsForEditor(services.db),
  ]);
  return { content, stats, settings, canEdit: viewer.roles.isAdmin };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const viewer = await requireRole(services, request, "editor");
  const intents = { ...homePageIntents(contentStoreFor(context)), ...newsletterSettingsIntents(services, viewer) };
  return runFormAction(await readForm(request), intents, services.logger);
}

export const clientAction = toastActionAnswer;

export const shouldRevalidate = skipRevalidationForTabs;

export default function AdminHomePage({ loaderData }: Route.ComponentProps) {
  const { content, stats, settings, canEdit } = loaderData;
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Home Page" description="The public home page, and the newsletter's settings." />
      <UrlTabs
        tabs={TABS}
        label="Home page sections"
        // A look at the other tab keeps what was typed into this one's forms.
        keepMounted
        panels={{
          editor: <HomePageEditor content={content} />,
          newsletter: <NewsletterSettingsTab stats={stats} settings={settings} canEdit={canEdit} />,
        }}
      />
    </div>
  );
}
