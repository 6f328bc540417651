import { Save } from "lucide-react";
import { EntryRevisions } from "~/components/forms/entry-revisions";
import { InputField, SwitchField, TextareaField } from "~/components/forms/fields";
import { IntentForm, useIntentForm } from "~/components/forms/intent-form";
import { SubmitButton } from "~/components/forms/submit-button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import type { NewsletterSettingsForEditor } from "../../../server/newsletter/settings.ts";
import { NEWSLETTER_SETTING_KEYS } from "../../../server/newsletter/settings-input.ts";
import { newsletterSettingsSchema } from "./schemas";

/**
 * The email settings card of the Newsletter Settings tab; read-only (a disabled
 * fieldset) for editors. The settings go with the revisions the page was loaded at, so
 * a save over another admin's change is refused and the form keeps what was typed.
 */
export function NewsletterSettingsCard({
  settings,
  canEdit,
}: {
  settings: NewsletterSettingsForEditor;
  canEdit: boolean;
}) {
  const save = useIntentForm({
    intent: "save-settings",
    schema: newsletterSettingsSchema,
    id: "newsletter-settings",
    defaultValue: {
      ...settings,
      auto_send_enabled: { ...settings.auto_send_enabled, value: settings.auto_send_enabled.value === "true" },
    },
  });
  const { fields, busy } = save;
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h3">Email Settings</CardTitle>
        <CardDescription>Automatic notifications and the welcome email new subscribers receive.</CardDescription>
      </CardHeader>
      <CardContent>
        {!canEdit && (
          <p className="mb-4 text-sm text-fg-muted" data-testid="settings-read-only">
            Only administrators can change the newsletter settings.
          </p>
        )}
        <IntentForm state={save} data-testid="newsletter-settings-form">
          {/* A disabled fieldset disables every control inside, the switch's button included. */}
          <fieldset disabled={!canEdit} className="flex min-w-0 flex-col gap-5">
            <EntryRevisions keys={NEWSLETTER_SETTING_KEYS} state={save} entries={settings} />
            <SwitchField
              meta={fields.auto_send_enabled.getFieldset().value}
              label="Automatic post notifications"
              hint="Email active subscribers when a chapter, tip or resource is published."
            />
            <InputField meta={fields.welcome_email_subject.getFieldset().value} label="Welcome email subject" />
            <TextareaField
              meta={fields.welcome_email_body.getFieldset().value}
              label="Welcome email message"
              rows={5}
            />
            {canEdit && (
              <div>
                <SubmitButton busy={busy} pendingLabel="Saving..." icon={Save}>
                  Save Newsletter Settings
                </SubmitButton>
              </div>
            )}
          </fieldset>
        </IntentForm>
      </CardContent>
    </Card>
  );
}
