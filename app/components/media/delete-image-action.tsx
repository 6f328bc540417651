import { DeleteItemButton } from "~/components/forms/delete-item-button";
import type { MediaLibraryItem } from "../../../server/media/media-item.ts";
import { chaptersUsing, imageName } from "./media-details";
import { MEDIA_INTENTS } from "./schemas";

const LIST = new Intl.ListFormat("en", { type: "conjunction" });

/**
 * Deletes an image after a confirmation. While chapter sections show it, the
 * confirmation names their chapters and the delete is sent as confirmed for those
 * sections; if others started using it since the page was loaded (or since the
 * confirmation opened), the server refuses and says so.
 */
export function DeleteImageAction({ image }: { image: MediaLibraryItem }) {
  const name = imageName(image);
  const chapters = chaptersUsing(image.usage);
  const sections = image.usage.length === 1 ? "1 chapter section" : `${image.usage.length} chapter sections`;
  const description =
    chapters.length === 0
      ? "The image and its resized copies are removed from storage. This action cannot be undone."
      : `This image is shown in ${sections} of ${LIST.format(chapters.map((chapter) => `“${chapter.chapterTitle}”`))}, which will show no image until another is chosen. This action cannot be undone.`;
  return (
    <DeleteItemButton
      name={name}
      description={description}
      confirmLabel={chapters.length === 0 ? "Delete" : "Delete anyway"}
      intent={MEDIA_INTENTS.deleteImage}
      fields={
        chapters.length === 0
          ? { id: image.id }
          : {
              id: image.id,
              confirmed: "on",
              confirmedSections: image.usage.map((place) => place.sectionId).join(","),
            }
      }
    />
  );
}
