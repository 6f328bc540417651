import type { FieldMetadata } from "@conform-to/react";
import { Award } from "lucide-react";
import type { ReactNode } from "react";
import { InputField, SelectField, TextareaField } from "~/components/forms/fields";
import { EditItemDialog, FormDialog } from "~/components/forms/form-dialog";
import { Badge } from "~/components/ui/badge";
import type { RevisionedList } from "../../../server/content/list-revisions.ts";
import type { CertificationRecord } from "../../../server/content/profile.ts";
import { CERTIFICATION_STATUS_BADGES } from "./labels";
import { ProfileList } from "./profile-list";
import { CERTIFICATION_FORMS, CERTIFICATION_STATUS_OPTIONS } from "./schemas";

const { intents } = CERTIFICATION_FORMS;

/** The Certifications tab: the grid of the public About page, in its order. */
export function CertificationsList({ list }: { list: RevisionedList<CertificationRecord> }) {
  return (
    <ProfileList
      title="Certifications"
      thing="certification"
      thingTitle="Certification"
      description="The certifications grid of the public About page, in this order."
      icon={Award}
      items={list.items}
      listRevision={list.revision}
      intents={intents}
      nameOf={(certification) => certification.name}
      summary={(certification) => <CertificationSummary certification={certification} />}
      addDialog={(trigger) => (
        <FormDialog
          title="Add Certification"
          trigger={trigger}
          schema={CERTIFICATION_FORMS.add}
          intent={intents.create}
          formId={intents.create}
          defaultValue={{ status: "completed" }}
          submitLabel="Add Certification"
          pendingLabel="Adding..."
        >
          {(fields) => <CertificationFields fields={fields} />}
        </FormDialog>
      )}
      editDialog={(certification, trigger) => (
        <EditItemDialog
          title="Edit Certification"
          trigger={trigger}
          schema={CERTIFICATION_FORMS.edit}
          intent={intents.update}
          item={certification}
          defaultValue={{ ...certification }}
        >
          {(fields) => <CertificationFields fields={fields} />}
        </EditItemDialog>
      )}
      deleteEffect="The certification is removed from the public About page."
      testId="certifications"
    />
  );
}

function CertificationSummary({ certification }: { certification: CertificationRecord }): ReactNode {
  const status = CERTIFICATION_STATUS_BADGES[certification.status];
  const details = [certification.organization, certification.date].filter(Boolean).join(" · ");
  return (
    <div className="flex flex-col gap-1">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium break-words text-fg">{certification.name}</span>
        <Badge tone={status.tone} className="whitespace-nowrap">
          {status.label}
        </Badge>
      </div>
      {details && <span className="text-sm break-words text-fg-muted">{details}</span>}
    </div>
  );
}

// The same fields in the add and the edit form, whose schemas differ.
type Fields = Record<
  "name" | "organization" | "description" | "date" | "status",
  FieldMetadata<unknown, Record<string, unknown>, string[]>
>;

function CertificationFields({ fields }: { fields: Fields }) {
  return (
    <>
      <InputField meta={fields.name} label="Name" autoFocus />
      <InputField meta={fields.organization} label="Organization" />
      <TextareaField meta={fields.description} label="Description" rows={3} />
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField meta={fields.date} label="Date" hint="Free text, e.g. a year: 2024." />
        <SelectField meta={fields.status} label="Status" options={CERTIFICATION_STATUS_OPTIONS} />
      </div>
    </>
  );
}
