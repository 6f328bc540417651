import { type FieldMetadata, getInputProps } from "@conform-to/react";
import { Images } from "lucide-react";
import { InputField } from "~/components/forms/fields";
import { useShownField } from "~/components/forms/form-errors";
import { ImageUpload } from "~/components/media/image-upload";
import { ImportUrlField } from "~/components/media/import-url-field";
import { MediaPickerDialog } from "~/components/media/media-picker-dialog";
import { Button } from "~/components/ui/button";
import type { SectionForm } from "./section-fields";

type Meta = FieldMetadata<unknown, Record<string, unknown>, string[]>;

/**
 * An image section's fields: the image (its URL is the section's content, in a hidden
 * field), chosen from the media library, uploaded in place or imported from a pasted
 * URL; its caption; and its text alternative, filled from the library's when empty.
 */
export function ImageSectionFields({
  fields,
  form,
}: {
  fields: Record<"content" | "caption" | "alt", Meta>;
  form: SectionForm;
}) {
  const url = typeof fields.content.value === "string" ? fields.content.value : "";
  const alt = typeof fields.alt.value === "string" ? fields.alt.value : "";
  const { key, ...contentProps } = getInputProps(fields.content, { type: "hidden" });
  const errors = fields.content.errors ?? [];
  useShownField(fields.content.name);

  function chooseImage(image: { url: string; alt: string | null }) {
    form.update({ name: fields.content.name, value: image.url, validated: true });
    if (alt.trim() === "" && image.alt) form.update({ name: fields.alt.name, value: image.alt });
  }

  return (
    <>
      <fieldset
        className="flex min-w-0 flex-col gap-3"
        aria-describedby={errors.length > 0 ? fields.content.errorId : undefined}
        data-testid="section-image"
      >
        <legend className="mb-1.5 text-sm font-medium text-fg">Image</legend>
        <input key={key} {...contentProps} />
        <ImageUpload
          current={url ? { url, alt } : null}
          onUploaded={chooseImage}
          label="Upload new image"
          actions={
            <MediaPickerDialog
              onPick={chooseImage}
              trigger={
                <Button variant="secondary">
                  <Images aria-hidden="true" className="size-4" />
                  Choose from library
                </Button>
              }
            />
          }
        />
        <ImportUrlField onImported={chooseImage} alt={alt} />
        {errors.length > 0 && (
          <p id={fields.content.errorId} className="text-sm text-danger" data-testid="field-error">
            {errors.join(" ")}
          </p>
        )}
      </fieldset>
      <InputField meta={fields.caption} label="Caption" hint="Shown under the image." />
      <InputField
        meta={fields.alt}
        label="Alt text"
        hint="What the image shows, for people who cannot see it. Leave empty to use the library's, or the caption."
      />
    </>
  );
}
