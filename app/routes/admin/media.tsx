import type { ShouldRevalidateFunction } from "react-router";
import { toastActionAnswer } from "~/components/forms/toast-action-answer";
import { mediaIntents } from "~/components/media/actions.server";
import { AddImagesCard } from "~/components/media/add-images-card";
import { MediaGrid } from "~/components/media/media-grid";
import { MEDIA_INTENTS } from "~/components/media/schemas";
import { PageHeader } from "~/components/ui/page-header";
import { servicesContext } from "~/context";
import { runFormAction } from "~/lib/form-action.server";
import { requireRole } from "~/lib/guards.server";
import { adminPageMeta } from "~/lib/meta";
import { readForm } from "~/lib/read-form.server";
import { mediaLibraryOf } from "../../../server/media/library.ts";
import type { Route } from "./+types/media";

/**
 * /admin/media (editors and admins): the images of the media library with where each
 * is used; uploaded through POST /api/media (so the page can show the upload's
 * progress), imported by URL, given alt text and deleted through this page's action.
 */

export const meta: Route.MetaFunction = () => adminPageMeta("Media");

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  await requireRole(services, request, "editor");
  return { images: await mediaLibraryOf(services).list() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const viewer = await requireRole(services, request, "editor");
  return runFormAction(
    await readForm(request),
    mediaIntents(mediaLibraryOf(services), viewer.user.id),
    services.logger,
  );
}

export const clientAction = toastActionAnswer;

/**
 * A refused delete is read again too (React Router skips that after a 4xx): it may mean
 * chapter sections started using the image, and its still open confirmation then names them.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) =>
  formData?.get("intent") === MEDIA_INTENTS.deleteImage || defaultShouldRevalidate;

export default function AdminMediaPage({ loaderData }: Route.ComponentProps) {
  const { images } = loaderData;
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Media" description="The images of your chapters: upload, describe, copy and delete them." />
      <AddImagesCard />
      <section aria-labelledby="media-library-title" className="flex flex-col gap-4">
        <h2 id="media-library-title" className="text-lg font-semibold tracking-tight text-fg">
          Library <span className="font-normal text-fg-muted">({images.length})</span>
        </h2>
        <MediaGrid images={images} />
      </section>
    </div>
  );
}
