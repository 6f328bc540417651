import type { FieldMetadata } from "@conform-to/react";
import { Gauge } from "lucide-react";
import { InputField, SliderField } from "~/components/forms/fields";
import { EditItemDialog, FormDialog } from "~/components/forms/form-dialog";
import type { RevisionedList } from "../../../server/content/list-revisions.ts";
import type { SkillRecord } from "../../../server/content/profile.ts";
import { SKILL_LEVEL } from "../../../server/content/profile-input.ts";
import { ProfileList } from "./profile-list";
import { SKILL_FORMS } from "./schemas";

const { intents } = SKILL_FORMS;
const percent = (level: number) => `${level}%`;

/** The Skills tab: the Technical Skills bars of the public About page, in their order. */
export function SkillsList({ list }: { list: RevisionedList<SkillRecord> }) {
  return (
    <ProfileList
      title="Skills"
      thing="skill"
      thingTitle="Skill"
      description="The Technical Skills of the public About page, each shown as a percent bar, in this order."
      icon={Gauge}
      items={list.items}
      listRevision={list.revision}
      intents={intents}
      nameOf={(skill) => skill.name}
      summary={(skill) => <SkillSummary skill={skill} />}
      addDialog={(trigger) => (
        <FormDialog
          title="Add Skill"
          trigger={trigger}
          schema={SKILL_FORMS.add}
          intent={intents.create}
          formId={intents.create}
          defaultValue={{ level: String(SKILL_LEVEL.initial) }}
          submitLabel="Add Skill"
          pendingLabel="Adding..."
        >
          {(fields) => <SkillFields fields={fields} />}
        </FormDialog>
      )}
      editDialog={(skill, trigger) => (
        <EditItemDialog
          title="Edit Skill"
          trigger={trigger}
          schema={SKILL_FORMS.edit}
          intent={intents.update}
          item={skill}
          defaultValue={{ ...skill, level: String(skill.level), category: skill.category ?? "" }}
        >
          {(fields) => <SkillFields fields={fields} />}
        </EditItemDialog>
      )}
      deleteEffect="The skill is removed from the public About page."
      testId="skills"
    />
  );
}

function SkillSummary({ skill }: { skill: SkillRecord }) {
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex items-baseline justify-between gap-3">
        <span className="min-w-0 break-words">
          <span className="font-medium text-fg">{skill.name}</span>
          {skill.category && <span className="ml-2 text-sm text-fg-muted">{skill.category}</span>}
        </span>
        <span className="font-mono text-sm text-fg-muted">{percent(skill.level)}</span>
      </div>
      <div aria-hidden="true" className="h-1.5 overflow-hidden rounded-full bg-line">
        <div className="h-full rounded-full bg-accent" style={{ width: percent(skill.level) }} />
      </div>
    </div>
  );
}

// The same fields in the add and the edit form, whose schemas differ.
type Fields = Record<"name" | "level" | "category", FieldMetadata<unknown, Record<string, unknown>, string[]>>;

function SkillFields({ fields }: { fields: Fields }) {
  return (
    <>
      <InputField meta={fields.name} label="Name" autoFocus />
      <SliderField
        meta={fields.level}
        label="Level"
        min={SKILL_LEVEL.min}
        max={SKILL_LEVEL.max}
        step={SKILL_LEVEL.step}
        format={percent}
      />
      <InputField meta={fields.category} label="Category" hint="Optional, e.g. Cloud or Scripting." />
    </>
  );
}
