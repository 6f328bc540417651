import { servicesContext } from "~/context";
import { requireApiCaller } from "../../../server/auth/api-caller.ts";
import { methodNotAllowed } from "../../../server/errors.ts";
import { mediaLibraryOf } from "../../../server/media/library.ts";
import { mediaErrorResponse, mediaJson } from "../../../server/media/responses.ts";
import { IMAGE_UPLOADED_MESSAGE, UPLOAD_FAILED_MESSAGE } from "../../../server/media/rules.ts";
import { readJsonObject } from "../../../server/validation.ts";
import type { Route } from "./+types/media-import";

/**
 * POST /api/media/import with JSON `{ url, alt? }` (an editor or admin, by session or
 * API token): the server fetches the image once, from public addresses only, checks
 * and stores it like an upload, and answers 201 with the same shape as POST /api/media.
 */

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireApiCaller(context.get(servicesContext), request, "editor");
  return methodNotAllowed("POST");
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { userId } = await requireApiCaller(services, request, "editor");
  if (request.method !== "POST") return methodNotAllowed("POST");
  try {
    const body = await readJsonObject(request);
    const { id, url, width, height, mime, bytes, alt, variants } = await mediaLibraryOf(services).importFromUrl(
      { url: body.url, alt: body.alt },
      userId,
    );
    return mediaJson({ id, url, width, height, mime, bytes, alt, variants, message: IMAGE_UPLOADED_MESSAGE }, 201);
  } catch (error) {
    return mediaErrorResponse(error, UPLOAD_FAILED_MESSAGE, services.logger);
  }
}
