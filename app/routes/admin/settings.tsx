import { toastActionAnswer } from "~/components/forms/toast-action-answer";
import { ComingSoonNote } from "~/components/settings-admin/coming-soon-note";
import { SAVE_SITE_SETTINGS_INTENT, siteSettingsFormSchema } from "~/components/settings-admin/schemas";
import { SiteSettingsForm } from "~/components/settings-admin/site-settings-form";
import { PageHeader } from "~/components/ui/page-header";
import { servicesContext } from "~/context";
import { contentStoreFor } from "~/lib/content-store.server";
import { formIntent, runFormAction } from "~/lib/form-action.server";
import { requireRole } from "~/lib/guards.server";
import { adminPageMeta } from "~/lib/meta";
import { readForm } from "~/lib/read-form.server";
import { getSiteSettingsForEditor, updateSiteSettings } from "../../../server/content/site-settings.ts";
import type { Route } from "./+types/settings";

/** /admin/settings (admins only): the LinkedIn and resume links of the public About page. */

export const meta: Route.MetaFunction = () => adminPageMeta("Site Settings");

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  await requireRole(services, request, "admin");
  return { settings: await getSiteSettingsForEditor(services.db) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  await requireRole(services, request, "admin");
  const store = contentStoreFor(context);
  return runFormAction(
    await readForm(request),
    {
      [SAVE_SITE_SETTINGS_INTENT]: formIntent({
        schema: siteSettingsFormSchema,
        failure: "Failed to update settings",
        // The form keeps its values; the page's new revisions come with the reloaded data.
        resetOnSuccess: false,
        async run(settings) {
          await updateSiteSettings(store, settings);
          return "Settings updated successfully!";
        },
      }),
    },
    services.logger,
  );
}

export const clientAction = toastActionAnswer;

export default function AdminSettingsPage({ loaderData }: Route.ComponentProps) {
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Site Settings" description="The links of the public About page's buttons." />
      <SiteSettingsForm settings={loaderData.settings} />
      <ComingSoonNote />
    </div>
  );
}
