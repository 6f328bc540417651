import { Save } from "lucide-react";
import { EntryRevisions } from "~/components/forms/entry-revisions";
import { InputField } from "~/components/forms/fields";
import { IntentForm, useIntentForm } from "~/components/forms/intent-form";
import { SubmitButton } from "~/components/forms/submit-button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import type { SiteSettingsForEditor } from "../../../server/content/site-settings.ts";
import { SITE_SETTING_KEYS } from "../../../server/content/site-settings-input.ts";
import { SAVE_SITE_SETTINGS_INTENT, siteSettingsFormSchema } from "./schemas";

/**
 * The links of the public About page's buttons (and the footer's profile link), saved
 * together. Each goes with the revision the page was loaded at, so a save over someone
 * else's change is refused and the form keeps what was typed.
 */
export function SiteSettingsForm({ settings }: { settings: SiteSettingsForEditor }) {
  const state = useIntentForm({
    intent: SAVE_SITE_SETTINGS_INTENT,
    schema: siteSettingsFormSchema,
    defaultValue: settings,
  });
  const { fields, busy } = state;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Profile Links</CardTitle>
        <CardDescription>Leave a link empty to hide its button.</CardDescription>
      </CardHeader>
      <CardContent>
        <IntentForm state={state} className="flex flex-col gap-5" data-testid="site-settings-form">
          <EntryRevisions keys={SITE_SETTING_KEYS} state={state} entries={settings} />
          <InputField
            meta={fields.linkedin_url.getFieldset().value}
            label="LinkedIn profile URL"
            type="url"
            hint="The Connect on LinkedIn button of the About page and the footer's profile link."
          />
          <InputField
            meta={fields.resume_url.getFieldset().value}
            label="Resume URL"
            type="url"
            hint="The View Resume button of the About page."
          />
          <div>
            <SubmitButton busy={busy} pendingLabel="Saving..." icon={Save}>
              Save Settings
            </SubmitButton>
          </div>
        </IntentForm>
      </CardContent>
    </Card>
  );
}
