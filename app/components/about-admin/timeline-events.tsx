import type { FieldMetadata } from "@conform-to/react";
import { CalendarClock } from "lucide-react";
import { InputField, SelectField, TextareaField } from "~/components/forms/fields";
import { EditItemDialog, FormDialog } from "~/components/forms/form-dialog";
import { Badge } from "~/components/ui/badge";
import type { RevisionedList } from "../../../server/content/list-revisions.ts";
import type { TimelineEventRecord } from "../../../server/content/profile.ts";
import { TIMELINE_CATEGORY_LABELS } from "./labels";
import { ProfileList } from "./profile-list";
import { TIMELINE_CATEGORY_OPTIONS, TIMELINE_EVENT_FORMS } from "./schemas";

const { intents } = TIMELINE_EVENT_FORMS;

/** The Timeline tab: dated milestones of education, projects, certifications and career. */
export function TimelineEventsList({ list }: { list: RevisionedList<TimelineEventRecord> }) {
  return (
    <ProfileList
      title="Timeline"
      thing="timeline event"
      thingTitle="Timeline Event"
      description="Dated milestones of your education, projects, certifications and career, in this order."
      icon={CalendarClock}
      items={list.items}
      listRevision={list.revision}
      intents={intents}
      nameOf={(event) => event.title}
      summary={(event) => <TimelineEventSummary event={event} />}
      addDialog={(trigger) => (
        <FormDialog
          title="Add Timeline Event"
          trigger={trigger}
          schema={TIMELINE_EVENT_FORMS.add}
          intent={intents.create}
          formId={intents.create}
          defaultValue={{ category: "project" }}
          submitLabel="Add Timeline Event"
          pendingLabel="Adding..."
        >
          {(fields) => <TimelineEventFields fields={fields} />}
        </FormDialog>
      )}
      editDialog={(event, trigger) => (
        <EditItemDialog
          title="Edit Timeline Event"
          trigger={trigger}
          schema={TIMELINE_EVENT_FORMS.edit}
          intent={intents.update}
          item={event}
          defaultValue={{ ...event }}
        >
          {(fields) => <TimelineEventFields fields={fields} />}
        </EditItemDialog>
      )}
      deleteEffect="The event is removed from the timeline."
      testId="timeline"
    />
  );
}

function TimelineEventSummary({ event }: { event: TimelineEventRecord }) {
  return (
    <div className="flex flex-col gap-1">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-mono text-sm text-accent">{event.date}</span>
        <span className="font-medium break-words text-fg">{event.title}</span>
        <Badge className="whitespace-nowrap">{TIMELINE_CATEGORY_LABELS[event.category]}</Badge>
      </div>
      {event.description && <p className="line-clamp-2 text-sm break-words text-fg-muted">{event.description}</p>}
    </div>
  );
}

// The same fields in the add and the edit form, whose schemas differ.
type Fields = Record<
  "date" | "title" | "description" | "category",
  FieldMetadata<unknown, Record<string, unknown>, string[]>
>;

function TimelineEventFields({ fields }: { fields: Fields }) {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField meta={fields.date} label="Date" hint="Free text, e.g. 2024-01." autoFocus />
        <SelectField meta={fields.category} label="Category" options={TIMELINE_CATEGORY_OPTIONS} />
      </div>
      <InputField meta={fields.title} label="Title" />
      <TextareaField meta={fields.description} label="Description" rows={3} />
    </>
  );
}
