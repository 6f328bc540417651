import type { FieldMetadata, FormMetadata } from "@conform-to/react";
import { InputField, SelectField, TextareaField } from "~/components/forms/fields";
import { cn } from "~/lib/cn";
import type { SectionType } from "../../../server/content/section-input.ts";
import { ImageSectionFields } from "./image-section-fields";
import { SECTION_TYPE_OPTIONS } from "./section-types";

type Meta = FieldMetadata<unknown, Record<string, unknown>, string[]>;
export type SectionFieldsMeta = Record<"type" | "content" | "caption" | "language" | "alt", Meta>;

const CONTENT_LABELS: Record<Exclude<SectionType, "image">, string> = {
  heading: "Heading",
  text: "Text",
  tip: "Tip",
  list: "List items",
  code: "Code",
};

/** The section editor's form, whose values the image fields set when an image is chosen. */
export type SectionForm = Pick<FormMetadata<Record<string, unknown>, string[]>, "update">;

/** The section editor's fields for the type chosen in its first field. */
export function SectionFields({
  fields,
  form,
  type,
}: {
  fields: SectionFieldsMeta;
  form: SectionForm;
  type: SectionType;
}) {
  return (
    <>
      {/* The first field takes the focus: one put in the empty content would be left at once
          by choosing the type, which shows the content's "required" message before any typing. */}
      <SelectField meta={fields.type} label="Section type" options={SECTION_TYPE_OPTIONS} autoFocus />
      {type === "image" ? (
        <ImageSectionFields fields={fields} form={form} />
      ) : (
        <TextSectionFields fields={fields} type={type} />
      )}
    </>
  );
}

/**
 * The content of every type but images, in one textarea that stays mounted when the
 * type changes, so what was typed is kept; headings get 2 rows, the others 8.
 */
function TextSectionFields({ fields, type }: { fields: SectionFieldsMeta; type: Exclude<SectionType, "image"> }) {
  const length = typeof fields.content.value === "string" ? fields.content.value.length : 0;
  return (
    <>
      <TextareaField
        meta={fields.content}
        label={CONTENT_LABELS[type]}
        rows={type === "heading" ? 2 : 8}
        spellCheck={type !== "code"}
        // Code keeps its lines as written; the preview shows how the reader scrolls them.
        wrap={type === "code" ? "off" : undefined}
        className={cn(type === "code" && "[&_textarea]:font-mono")}
        hint={contentHint(type, length)}
      />
      {type === "code" && (
        <div className="grid gap-4 sm:grid-cols-2">
          <InputField
            meta={fields.language}
            label="Language"
            placeholder="bash"
            hint="For highlighting: bash, python, powershell, json…"
          />
          <InputField meta={fields.caption} label="Caption" hint="Shown under the code." />
        </div>
      )}
    </>
  );
}

function contentHint(type: Exclude<SectionType, "image">, length: number) {
  switch (type) {
    case "text":
      return (
        <span className="flex flex-wrap justify-between gap-x-4">
          <span>A blank line starts a new paragraph.</span>
          <span data-testid="character-count" className="tabular-nums">
            {length.toLocaleString("en")} {length === 1 ? "character" : "characters"}
          </span>
        </span>
      );
    case "tip":
      return "A blank line starts a new paragraph.";
    case "list":
      return "One item per line.";
    default:
      return undefined;
  }
}
