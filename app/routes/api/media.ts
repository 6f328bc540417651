import { servicesContext } from "~/context";
import { requireApiCaller } from "../../../server/auth/api-caller.ts";
import { methodNotAllowed } from "../../../server/errors.ts";
import { mediaLibraryOf } from "../../../server/media/library.ts";
import { readImageUpload } from "../../../server/media/multipart.ts";
import { mediaErrorResponse, mediaJson } from "../../../server/media/responses.ts";
import {
  DELETE_FAILED_MESSAGE,
  IMAGE_DELETED_MESSAGE,
  IMAGE_UPLOADED_MESSAGE,
  UPLOAD_FAILED_MESSAGE,
} from "../../../server/media/rules.ts";
import type { Route } from "./+types/media";

/**
 * The media API, for the admin's upload control and API clients alike (an editor or
 * admin, by session cookie or `Authorization: Bearer <token>`):
 * - GET: every image, newest first, with the chapter sections using it;
 * - POST (multipart/form-data, the image in `file`, optional `alt`): 201 with the image;
 * - DELETE ?url=…[&confirmed=true]: deletes the image the URL names (409 with `usage`
 *   while chapter sections show it, unless confirmed).
 * Errors are `{ error }` with the spec's texts.
 */

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  await requireApiCaller(services, request, "editor");
  return mediaJson({ media: await mediaLibraryOf(services).list() });
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { userId } = await requireApiCaller(services, request, "editor");
  const media = mediaLibraryOf(services);

  if (request.method === "POST") {
    try {
      const upload = await readImageUpload(request);
      const { id, url, width, height, mime, bytes, alt, variants } = await media.upload(
        { bytes: upload.bytes, originalName: upload.filename, alt: upload.fields.alt },
        userId,
      );
      return mediaJson({ id, url, width, height, mime, bytes, alt, variants, message: IMAGE_UPLOADED_MESSAGE }, 201);
    } catch (error) {
      return mediaErrorResponse(error, UPLOAD_FAILED_MESSAGE, services.logger);
    }
  }

  if (request.method === "DELETE") {
    const query = new URL(request.url).searchParams;
    try {
      const { deleted, usage } = await media.removeByUrl(
        { url: query.get("url") ?? "", confirmed: ["true", "1"].includes(query.get("confirmed") ?? "") },
        userId,
      );
      return mediaJson({ message: IMAGE_DELETED_MESSAGE, id: deleted.id, url: deleted.url, usage });
    } catch (error) {
      return mediaErrorResponse(error, DELETE_FAILED_MESSAGE, services.logger);
    }
  }

  return methodNotAllowed("GET, POST, DELETE");
}
