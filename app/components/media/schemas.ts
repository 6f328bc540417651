import { altChangeInput, importInput, removeInput } from "../../../server/media/inputs.ts";

/** The forms of /admin/media, read by the browser and again by the action: the media services' own input rules. */

export const MEDIA_INTENTS = {
  updateAlt: "update-alt",
  deleteImage: "delete-image",
  importImage: "import-image",
} as const;

/** The alt text with the revision the dialog opened at. */
export const altTextSchema = altChangeInput;
/** `confirmed` ("on") is sent by a confirmation that named the chapters using the image. */
export const deleteImageSchema = removeInput;
export const importImageSchema = importInput;
