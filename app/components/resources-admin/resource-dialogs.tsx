import type { FieldMetadata } from "@conform-to/react";
import type { ReactNode } from "react";
import { InputField, SelectField, SwitchField, TextareaField } from "~/components/forms/fields";
import { EditItemDialog, FormDialog } from "~/components/forms/form-dialog";
import type { ResourceRecord } from "../../../server/content/resources.ts";
import {
  addResourceSchema,
  editResourceSchema,
  RESOURCE_CATEGORY_OPTIONS,
  RESOURCE_INTENTS,
  type ResourceCategory,
} from "./schemas";

// The same fields in the add and the edit form, whose schemas differ.
type ResourceFieldsMeta = Record<
  "name" | "description" | "url" | "category" | "featured",
  FieldMetadata<unknown, Record<string, unknown>, string[]>
>;

export function AddResourceDialog({ trigger, category }: { trigger: ReactNode; category: ResourceCategory | null }) {
  return (
    <FormDialog
      title="Add Resource"
      description="A link in the library of the public Resources page (Services stay on this screen only)."
      trigger={trigger}
      schema={addResourceSchema}
      intent={RESOURCE_INTENTS.create}
      formId={RESOURCE_INTENTS.create}
      // A list filtered to one category adds to that category.
      defaultValue={{ category: category ?? "Learning" }}
      submitLabel="Add Resource"
      pendingLabel="Adding..."
    >
      {(fields) => <ResourceFields fields={fields} />}
    </FormDialog>
  );
}

export function EditResourceDialog({ trigger, resource }: { trigger: ReactNode; resource: ResourceRecord }) {
  return (
    <EditItemDialog
      title="Edit Resource"
      trigger={trigger}
      schema={editResourceSchema}
      intent={RESOURCE_INTENTS.update}
      item={resource}
      defaultValue={{
        id: resource.id,
        revision: String(resource.revision),
        name: resource.name,
        description: resource.description,
        url: resource.url,
        category: resource.category,
        featured: resource.featured ? "on" : "",
      }}
    >
      {(fields) => <ResourceFields fields={fields} />}
    </EditItemDialog>
  );
}

function ResourceFields({ fields }: { fields: ResourceFieldsMeta }) {
  return (
    <>
      {/* The dialog opens to type a name; focus would otherwise land on Close. */}
      <InputField meta={fields.name} label="Name" autoFocus />
      <TextareaField meta={fields.description} label="Description" rows={3} />
      <InputField meta={fields.url} label="URL" type="url" placeholder="https://" />
      <SelectField meta={fields.category} label="Category" options={RESOURCE_CATEGORY_OPTIONS} />
      <SwitchField meta={fields.featured} label="Featured" hint="Featured resources lead the public Resources page." />
    </>
  );
}
