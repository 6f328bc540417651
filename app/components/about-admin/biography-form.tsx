import { Save } from "lucide-react";
import { EntryRevisions } from "~/components/forms/entry-revisions";
import { InputField, TextareaField } from "~/components/forms/fields";
import { IntentForm, useIntentForm } from "~/components/forms/intent-form";
import { SubmitButton } from "~/components/forms/submit-button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import type { AboutEditorContent } from "../../../server/content/about.ts";
import { ABOUT_CONTENT_KEYS } from "../../../server/content/about-input.ts";
import { aboutContentFormSchema, SAVE_ABOUT_CONTENT_INTENT } from "./schemas";

/**
 * Biography & Content: the About page's name, title, three biography paragraphs and
 * mission, saved together. Each entry goes with the revision the page was loaded at,
 * so a save over someone else's change is refused and the form keeps what was typed.
 */
export function BiographyForm({ content }: { content: AboutEditorContent }) {
  const state = useIntentForm({
    intent: SAVE_ABOUT_CONTENT_INTENT,
    schema: aboutContentFormSchema,
    defaultValue: content,
  });
  const { fields, busy } = state;
  const entry = (key: (typeof ABOUT_CONTENT_KEYS)[number]) => fields[key].getFieldset().value;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Biography & Content</CardTitle>
        <CardDescription>The introduction at the top of the public About page.</CardDescription>
      </CardHeader>
      <CardContent>
        <IntentForm state={state} className="flex flex-col gap-5" data-testid="biography-form">
          <EntryRevisions keys={ABOUT_CONTENT_KEYS} state={state} entries={content} />
          <div className="grid gap-5 sm:grid-cols-2">
            <InputField meta={entry("about_name")} label="Name" autoComplete="off" />
            <InputField meta={entry("about_title")} label="Title" autoComplete="off" />
          </div>
          <TextareaField meta={entry("about_bio_1")} label="Biography paragraph 1" rows={4} />
          <TextareaField meta={entry("about_bio_2")} label="Biography paragraph 2" rows={4} />
          <TextareaField meta={entry("about_bio_3")} label="Biography paragraph 3" rows={4} />
          <TextareaField meta={entry("about_mission")} label="Mission statement" rows={3} />
          <div>
            <SubmitButton busy={busy} pendingLabel="Saving..." icon={Save}>
              Save Content
            </SubmitButton>
          </div>
        </IntentForm>
      </CardContent>
    </Card>
  );
}
