import type { FieldMetadata } from "@conform-to/react";
import type { ReactNode } from "react";
import { InputField, SelectField, TextareaField } from "~/components/forms/fields";
import { EditItemDialog, FormDialog } from "~/components/forms/form-dialog";
import type { TipRecord } from "../../../server/content/tips.ts";
import {
  addTipSchema,
  editTipSchema,
  TIP_CATEGORY_OPTIONS,
  TIP_INTENTS,
  TIP_TYPE_OPTIONS,
  type TipCategory,
} from "./schemas";

// The same fields in the add and the edit form, whose schemas differ.
type TipFieldsMeta = Record<
  "title" | "description" | "url" | "category" | "type" | "orderIndex",
  FieldMetadata<unknown, Record<string, unknown>, string[]>
>;

/** The spec calls the tips of this screen "resources": its button reads Add Resource. */
export function AddTipDialog({ trigger, category }: { trigger: ReactNode; category: TipCategory | null }) {
  return (
    <FormDialog
      title="Add Resource"
      description="A card on the public Tips & Tricks page."
      trigger={trigger}
      schema={addTipSchema}
      intent={TIP_INTENTS.create}
      formId={TIP_INTENTS.create}
      // A list filtered to one category adds to that category.
      defaultValue={{ category: category ?? "Tenable", type: "external", orderIndex: "0" }}
      submitLabel="Add Resource"
      pendingLabel="Adding..."
    >
      {(fields) => <TipFields fields={fields} />}
    </FormDialog>
  );
}

export function EditTipDialog({ trigger, tip }: { trigger: ReactNode; tip: TipRecord }) {
  return (
    <EditItemDialog
      title="Edit Resource"
      trigger={trigger}
      schema={editTipSchema}
      intent={TIP_INTENTS.update}
      item={tip}
      defaultValue={{
        id: tip.id,
        revision: String(tip.revision),
        title: tip.title,
        description: tip.description,
        url: tip.url ?? "",
        category: tip.category,
        type: tip.type,
        orderIndex: String(tip.orderIndex),
      }}
    >
      {(fields) => <TipFields fields={fields} />}
    </EditItemDialog>
  );
}

function TipFields({ fields }: { fields: TipFieldsMeta }) {
  return (
    <>
      {/* The dialog opens to type a title; focus would otherwise land on Close. */}
      <InputField meta={fields.title} label="Title" autoFocus />
      <TextareaField meta={fields.description} label="Description" rows={3} />
      <InputField
        meta={fields.url}
        label="URL"
        type="url"
        hint="Leave empty for a card without a link (shown dimmed)."
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField meta={fields.category} label="Category" options={TIP_CATEGORY_OPTIONS} />
        <SelectField meta={fields.type} label="Type" options={TIP_TYPE_OPTIONS} />
      </div>
      <InputField
        meta={fields.orderIndex}
        label="Order"
        type="number"
        inputMode="numeric"
        min={0}
        step={1}
        hint="Lower numbers come first within the category."
      />
    </>
  );
}
