import { Save } from "lucide-react";
import { EntryRevisions } from "~/components/forms/entry-revisions";
import { InputField, SwitchField, TextareaField } from "~/components/forms/fields";
import { IntentForm, useIntentForm } from "~/components/forms/intent-form";
import { SubmitButton } from "~/components/forms/submit-button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import type { HomeEditorContent } from "../../../server/content/home.ts";
import { HOME_CONTENT_KEYS } from "../../../server/content/home-input.ts";
import { homePageFormSchema, SAVE_HOME_PAGE_INTENT } from "./schemas";

const LINK_HINT = "A path of this site (/projects) or an http(s) address; empty for the default";

/**
 * The Home Page Editor: the hero's headline, tagline and description, its two buttons
 * (text and link) and the newsletter section's switch, saved together. Each entry goes
 * with the revision the page was loaded at, so a save over someone else's change is
 * refused as a whole and the form keeps what was typed.
 */
export function HomePageEditor({ content }: { content: HomeEditorContent }) {
  const state = useIntentForm({
    intent: SAVE_HOME_PAGE_INTENT,
    schema: homePageFormSchema,
    defaultValue: {
      ...content,
      newsletter_section_visible: { value: content.newsletter_section_visible.value === "true" ? "on" : "" },
    },
  });
  const { fields, busy } = state;
  const value = (key: (typeof HOME_CONTENT_KEYS)[number]) => fields[key].getFieldset().value;
  const primary = fields.button_primary_text.getFieldset();
  const secondary = fields.button_secondary_text.getFieldset();
  return (
    <IntentForm state={state} className="flex flex-col gap-6" data-testid="home-page-editor">
      <EntryRevisions keys={HOME_CONTENT_KEYS} state={state} entries={content} />
      <Card>
        <CardHeader>
          <CardTitle>Hero</CardTitle>
          <CardDescription>The first thing visitors read on the home page.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-5">
          <InputField meta={value("hero_headline")} label="Hero headline" autoComplete="off" />
          <InputField meta={value("hero_tagline")} label="Tagline" autoComplete="off" />
          <TextareaField meta={value("hero_description")} label="Description" rows={4} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Buttons</CardTitle>
          <CardDescription>The two buttons under the hero text.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5 md:grid-cols-2">
          <fieldset className="flex min-w-0 flex-col gap-4">
            <legend className="mb-3 text-sm font-semibold text-fg">Primary button</legend>
            <InputField meta={primary.value} label="Primary button text" autoComplete="off" />
            <InputField meta={primary.link} label="Primary button link" hint={LINK_HINT} placeholder="/projects" />
          </fieldset>
          <fieldset className="flex min-w-0 flex-col gap-4">
            <legend className="mb-3 text-sm font-semibold text-fg">Secondary button</legend>
            <InputField meta={secondary.value} label="Secondary button text" autoComplete="off" />
            <InputField meta={secondary.link} label="Secondary button link" hint={LINK_HINT} placeholder="/blog" />
          </fieldset>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Newsletter</CardTitle>
        </CardHeader>
        <CardContent>
          <SwitchField
            meta={value("newsletter_section_visible")}
            label="Show the newsletter signup section"
            hint="The subscription form at the bottom of the home page."
          />
        </CardContent>
      </Card>
      <div>
        <SubmitButton busy={busy} pendingLabel="Saving..." icon={Save}>
          Save Home Page
        </SubmitButton>
      </div>
    </IntentForm>
  );
}
