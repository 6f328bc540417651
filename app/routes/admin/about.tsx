import { BiographyForm } from "~/components/about-admin/biography-form";
import { CertificationsList } from "~/components/about-admin/certifications";
import { aboutIntents } from "~/components/about-admin/intents.server";
import { SkillsList } from "~/components/about-admin/skills";
import { TimelineEventsList } from "~/components/about-admin/timeline-events";
import { toastActionAnswer } from "~/components/forms/toast-action-answer";
import { PageHeader } from "~/components/ui/page-header";
import { skipRevalidationForTabs, UrlTabs } from "~/components/ui/url-tabs";
import { servicesContext } from "~/context";
import { contentStoreFor } from "~/lib/content-store.server";
import { runFormAction } from "~/lib/form-action.server";
import { requireRole } from "~/lib/guards.server";
import { adminPageMeta } from "~/lib/meta";
import { readForm } from "~/lib/read-form.server";
import { getAboutContentForEditor } from "../../../server/content/about.ts";
import { listCertifications, listSkills, listTimelineEvents } from "../../../server/content/profile.ts";
import type { Route } from "./+types/about";

/**
 * /admin/about (editors and admins): the public About page's texts and its lists of
 * certifications, skills and timeline events, one tab each.
 */

export const meta: Route.MetaFunction = () => adminPageMeta("About");

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  await requireRole(services, request, "editor");
  const [content, certifications, skills, timeline] = await Promise.all([
    getAboutContentForEditor(services.db),
    listCertifications(services.db),
    listSkills(services.db),
    listTimelineEvents(services.db),
  ]);
  return { content, certifications, skills, timeline };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  await requireRole(services, request, "editor");
  return runFormAction(await readForm(request), aboutIntents(contentStoreFor(context)), services.logger);
}

export const clientAction = toastActionAnswer;

// Choosing a tab changes the address only: every tab's data is on the page already.
export const shouldRevalidate = skipRevalidationForTabs;

/** The spec's four tabs, in its order; the first is the page without `?tab=`. */
const ABOUT_TABS = [
  { id: "biography", label: "Biography & Content" },
  { id: "certifications", label: "Certifications" },
  { id: "skills", label: "Skills" },
  { id: "timeline", label: "Timeline" },
] as const;

export default function AdminAboutPage({ loaderData }: Route.ComponentProps) {
  const { content, certifications, skills, timeline } = loaderData;
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="About" description="The public About page: its introduction and its lists." />
      <UrlTabs
        tabs={ABOUT_TABS}
        label="About page sections"
        // A look at a list keeps what was typed into Biography & Content.
        keepMounted
        // Four tabs do not fit a phone's width in a row: two rows of two.
        listClassName="max-sm:grid max-sm:grid-cols-2"
        panels={{
          biography: <BiographyForm content={content} />,
          certifications: <CertificationsList list={certifications} />,
          skills: <SkillsList list={skills} />,
          timeline: <TimelineEventsList list={timeline} />,
        }}
      />
    </div>
  );
}
