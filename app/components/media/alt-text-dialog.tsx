import type { ReactNode } from "react";
import { TextareaField } from "~/components/forms/fields";
import { EditItemDialog } from "~/components/forms/form-dialog";
import type { MediaLibraryItem } from "../../../server/media/media-item.ts";
import { imageName, thumbnailOf } from "./media-details";
import { altTextSchema, MEDIA_INTENTS } from "./schemas";

/** Edits an image's alt text, at the revision the dialog opened at (a save after someone else's is refused). */
export function AltTextDialog({ image, trigger }: { image: MediaLibraryItem; trigger: ReactNode }) {
  const thumbnail = thumbnailOf(image);
  return (
    <EditItemDialog
      title="Edit alt text"
      description={imageName(image)}
      trigger={trigger}
      schema={altTextSchema}
      intent={MEDIA_INTENTS.updateAlt}
      item={image}
      defaultValue={{ alt: image.alt ?? "" }}
    >
      {(fields) => (
        <>
          <img
            src={thumbnail.url}
            width={thumbnail.width}
            height={thumbnail.height}
            alt=""
            className="max-h-40 w-auto max-w-full self-center rounded-md border border-line object-contain"
          />
          <TextareaField
            meta={fields.alt}
            label="Alt text"
            rows={3}
            autoFocus
            hint="What the image shows, for people who cannot see it. Chapter sections without alt text of their own use this."
          />
        </>
      )}
    </EditItemDialog>
  );
}
