import type { FieldMetadata } from "@conform-to/react";
import { InputField } from "~/components/forms/fields";

type Meta = FieldMetadata<any, any, string[]>;

/**
 * An image section's fields: the image (its URL is the section's content), its caption
 * and its text alternative. The URL is typed for now; the media library's upload and
 * pick-from-library control takes this field's place.
 */
export function ImageSectionFields({ fields }: { fields: Record<"content" | "caption" | "alt", Meta> }) {
  return (
    <>
      <InputField
        meta={fields.content}
        label="Image URL"
        type="url"
        hint="An address starting with https://, or a path on this site such as /media/…"
      />
      <InputField meta={fields.caption} label="Caption" hint="Shown under the image." />
      <InputField
        meta={fields.alt}
        label="Alt text"
        hint="What the image shows, for people who cannot see it. Leave empty to use the caption."
      />
    </>
  );
}
