import { Plus } from "lucide-react";
import { toastActionAnswer } from "~/components/forms/toast-action-answer";
import { projectsIntents } from "~/components/projects/actions.server";
import { NewChapterDialog } from "~/components/projects/chapter-dialogs";
import { ChaptersTable } from "~/components/projects/chapters-table";
import { PROJECTS_INTENTS } from "~/components/projects/schemas";
import { answerSectionPreview } from "~/components/projects/section-preview.server";
import { SectionsPanel } from "~/components/projects/sections-panel";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { PageHeader } from "~/components/ui/page-header";
import { servicesContext } from "~/context";
import { contentStoreFor } from "~/lib/content-store.server";
import { runFormAction } from "~/lib/form-action.server";
import { requireRole } from "~/lib/guards.server";
import { adminPageMeta } from "~/lib/meta";
import { readForm } from "~/lib/read-form.server";
import { listChapters } from "../../../server/content/chapters.ts";
import { listSections } from "../../../server/content/sections.ts";
import { mediaLibraryOf } from "../../../server/media/library.ts";
import { sectionImageOrigins } from "../../../server/media/storage/index.ts";
import type { Route } from "./+types/projects";

/**
 * /admin/projects (editors and admins): the chapters of the reader and, for the chapter
 * chosen in the address (`?chapter=<id>`, so it survives a reload), its sections,
 * written through the content services; the section editor's live preview is an
 * intent of the same action, so the admin guard covers it like every other write.
 */

export const meta: Route.MetaFunction = () => adminPageMeta("Projects & Courses");

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  await requireRole(services, request, "editor");
  const chapters = await listChapters(services.db);
  const chosen = new URL(request.url).searchParams.get("chapter");
  const selected = chapters.items.find((chapter) => chapter.id === chosen) ?? null;
  return { chapters, selected, sections: selected ? await listSections(services.db, selected.id) : null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  await requireRole(services, request, "editor");
  const formData = await readForm(request);
  if (formData.get("intent") === PROJECTS_INTENTS.previewSection) {
    return answerSectionPreview(
      formData,
      { media: mediaLibraryOf(services), logger: services.logger },
      sectionImageOrigins(services.config),
    );
  }
  return runFormAction(formData, projectsIntents(contentStoreFor(context)), services.logger);
}

export const clientAction = toastActionAnswer;

export default function AdminProjectsPage({ loaderData }: Route.ComponentProps) {
  const { chapters, selected, sections } = loaderData;
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Projects & Courses"
        description="The chapters of the public reader and, for the chapter you choose, its sections."
        action={
          <NewChapterDialog
            trigger={
              <Button data-testid="new-chapter">
                <Plus aria-hidden="true" className="size-4" />
                New Chapter
              </Button>
            }
          />
        }
      />
      <div className="grid items-start gap-6 xl:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
        <Card>
          <CardHeader>
            <CardTitle>Chapters</CardTitle>
            <CardDescription>In reading order. Choose a chapter to manage its sections.</CardDescription>
          </CardHeader>
          <CardContent>
            <ChaptersTable chapters={chapters.items} selectedId={selected?.id ?? null} />
          </CardContent>
        </Card>
        <SectionsPanel chapter={selected} sections={sections} />
      </div>
    </div>
  );
}
