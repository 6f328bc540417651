import { Save } from "lucide-react";
import { InputField, SwitchField, TextareaField } from "~/components/forms/fields";
import { IntentForm, useIntentForm } from "~/components/forms/intent-form";
import { SubmitButton } from "~/components/forms/submit-button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { newsletterSettingsSchema } from "./schemas";

export interface NewsletterSettingsValues {
  auto_send_enabled: string;
  welcome_email_subject: string;
  welcome_email_body: string;
}

/** The email settings card of the Newsletter Settings tab; read-only (a disabled fieldset) for editors. */
export function NewsletterSettingsCard({
  settings,
  canEdit,
}: {
  settings: NewsletterSettingsValues;
  canEdit: boolean;
}) {
  const save = useIntentForm({
    intent: "save-settings",
    schema: newsletterSettingsSchema,
    id: "newsletter-settings",
    defaultValue: { ...settings, auto_send_enabled: settings.auto_send_enabled === "true" },
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
            <SwitchField
              meta={fields.auto_send_enabled}
              label="Automatic post notifications"
              hint="Email active subscribers when a chapter, tip or resource is published."
            />
            <InputField meta={fields.welcome_email_subject} label="Welcome email subject" />
            <TextareaField meta={fields.welcome_email_body} label="Welcome email message" rows={5} />
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
