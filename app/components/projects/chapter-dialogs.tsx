import type { FieldMetadata } from "@conform-to/react";
import type { ReactNode } from "react";
import { InputField, SwitchField } from "~/components/forms/fields";
import { EditItemDialog, FormDialog } from "~/components/forms/form-dialog";
import type { ChapterRecord } from "../../../server/content/chapters.ts";
import { createChapterSchema, editChapterSchema, PROJECTS_INTENTS } from "./schemas";

// The same fields in the create and the edit form, whose schemas differ.
type ChapterFieldsMeta = Record<
  "title" | "number" | "orderIndex" | "published",
  FieldMetadata<unknown, Record<string, unknown>, string[]>
>;

export function NewChapterDialog({ trigger }: { trigger: ReactNode }) {
  return (
    <FormDialog
      title="New Chapter"
      description="A chapter of the public Projects & Courses reader."
      trigger={trigger}
      schema={createChapterSchema}
      intent={PROJECTS_INTENTS.createChapter}
      formId={PROJECTS_INTENTS.createChapter}
      // New chapters are published unless switched off (the spec's default).
      defaultValue={{ published: "on" }}
      submitLabel="Create Chapter"
      pendingLabel="Creating..."
    >
      {(fields) => <ChapterFields fields={fields} creating />}
    </FormDialog>
  );
}

export function EditChapterDialog({ trigger, chapter }: { trigger: ReactNode; chapter: ChapterRecord }) {
  return (
    <EditItemDialog
      title="Edit Chapter"
      trigger={trigger}
      schema={editChapterSchema}
      intent={PROJECTS_INTENTS.updateChapter}
      item={chapter}
      defaultValue={{
        title: chapter.title,
        number: String(chapter.number),
        orderIndex: String(chapter.orderIndex),
        published: chapter.published ? "on" : "",
      }}
    >
      {(fields) => <ChapterFields fields={fields} />}
    </EditItemDialog>
  );
}

/** A new chapter left without a number or order gets the next ones (the service decides). */
function ChapterFields({ fields, creating = false }: { fields: ChapterFieldsMeta; creating?: boolean }) {
  return (
    <>
      {/* The dialog opens to type a title; focus would otherwise land on Close. */}
      <InputField meta={fields.title} label="Title" autoFocus />
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField
          meta={fields.number}
          label="Number"
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          hint={creating ? "Leave empty for the number after the highest." : "Shown before the title."}
        />
        <InputField
          meta={fields.orderIndex}
          label="Order"
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          hint={creating ? "Leave empty to place it last." : "Lower numbers come first in the reader."}
        />
      </div>
      <SwitchField
        meta={fields.published}
        label="Published"
        hint="Drafts are hidden from visitors; editors can still preview them."
      />
    </>
  );
}
