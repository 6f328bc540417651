import type { ReactNode } from "react";
import { EditItemDialog, FormDialog } from "~/components/forms/form-dialog";
import type { SectionRecord } from "../../../server/content/sections.ts";
import { addSectionSchema, editSectionSchema, PROJECTS_INTENTS } from "./schemas";
import { SectionFields, type SectionFieldsMeta, type SectionForm } from "./section-fields";
import { SectionLivePreview } from "./section-live-preview";
import { SECTION_TYPE_OPTIONS } from "./section-types";

export function AddSectionDialog({ trigger, chapterId }: { trigger: ReactNode; chapterId: string }) {
  return (
    <FormDialog
      title="Add Section"
      description="Appended to the end of the chapter; drag it or move it afterwards."
      trigger={trigger}
      size="xl"
      schema={addSectionSchema}
      intent={PROJECTS_INTENTS.addSection}
      formId={PROJECTS_INTENTS.addSection}
      defaultValue={{ type: "text" }}
      submitLabel="Add Section"
      pendingLabel="Adding..."
    >
      {(fields, form) => (
        <>
          <input type="hidden" name={fields.chapterId.name} defaultValue={chapterId} />
          <SectionEditor fields={fields} form={form} />
        </>
      )}
    </FormDialog>
  );
}

export function EditSectionDialog({ trigger, section }: { trigger: ReactNode; section: SectionRecord }) {
  return (
    <EditItemDialog
      title="Edit Section"
      trigger={trigger}
      size="xl"
      schema={editSectionSchema}
      intent={PROJECTS_INTENTS.updateSection}
      item={section}
      defaultValue={{
        type: section.type,
        content: section.content,
        caption: section.caption ?? "",
        language: section.language ?? "",
        alt: section.alt ?? "",
      }}
    >
      {(fields, form) => <SectionEditor fields={fields} form={form} />}
    </EditItemDialog>
  );
}

/** The fields of the chosen type beside (on phones: above) the live preview of what they make. */
function SectionEditor({ fields, form }: { fields: SectionFieldsMeta; form: SectionForm }) {
  const type = SECTION_TYPE_OPTIONS.find((option) => option.value === fields.type.value)?.value ?? "text";
  const text = (meta: SectionFieldsMeta[keyof SectionFieldsMeta]) => (typeof meta.value === "string" ? meta.value : "");
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <div className="flex min-w-0 flex-col gap-4">
        <SectionFields fields={fields} form={form} type={type} />
      </div>
      <SectionLivePreview
        draft={{
          type,
          content: text(fields.content),
          caption: text(fields.caption),
          language: text(fields.language),
          alt: text(fields.alt),
        }}
      />
    </div>
  );
}
