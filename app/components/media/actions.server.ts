import { formIntent } from "~/lib/form-action.server";
import type { MediaLibrary } from "../../../server/media/library.ts";
import {
  DELETE_FAILED_MESSAGE,
  IMAGE_DELETED_MESSAGE,
  IMAGE_UPLOADED_MESSAGE,
  UPLOAD_FAILED_MESSAGE,
} from "../../../server/media/rules.ts";
import { altTextSchema, deleteImageSchema, importImageSchema, MEDIA_INTENTS } from "./schemas";

/**
 * The writes of /admin/media, each one call of the media library, with the spec's
 * toasts. Uploads from the browser go to POST /api/media instead, whose progress the
 * page can follow.
 */
export function mediaIntents(media: MediaLibrary, actorId: string) {
  return {
    [MEDIA_INTENTS.updateAlt]: formIntent({
      schema: altTextSchema,
      failure: "Failed to update alt text",
      async run(change) {
        await media.updateAlt(change, actorId);
        return "Alt text updated successfully!";
      },
    }),
    [MEDIA_INTENTS.deleteImage]: formIntent({
      schema: deleteImageSchema,
      failure: { title: "Delete failed", unexpected: DELETE_FAILED_MESSAGE },
      async run(image) {
        await media.remove(image, actorId);
        return IMAGE_DELETED_MESSAGE;
      },
    }),
    [MEDIA_INTENTS.importImage]: formIntent({
      schema: importImageSchema,
      failure: { title: "Upload failed", unexpected: UPLOAD_FAILED_MESSAGE },
      async run(image) {
        await media.importFromUrl(image, actorId);
        return IMAGE_UPLOADED_MESSAGE;
      },
    }),
  };
}
