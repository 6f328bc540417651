import { getFormProps } from "@conform-to/react";
import { Save } from "lucide-react";
import { FormErrors, InputField, SwitchField, TextareaField } from "~/components/forms/fields";
import { useActionFetcher } from "~/components/forms/use-action-fetcher";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { useSchemaForm } from "~/lib/forms";
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
  const { fetcher, lastResult, busy } = useActionFetcher("save-settings");
  const [form, fields] = useSchemaForm({
    schema: newsletterSettingsSchema,
    id: "newsletter-settings",
    lastResult,
    defaultValue: { ...settings, auto_send_enabled: settings.auto_send_enabled === "true" },
  });
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
        <fetcher.Form method="post" {...getFormProps(form)} data-testid="newsletter-settings-form">
          <input type="hidden" name="intent" value="save-settings" />
          {/* A disabled fieldset disables every control inside, the switch's button included. */}
          <fieldset disabled={!canEdit} className="flex min-w-0 flex-col gap-5">
            <FormErrors errors={form.errors} id={form.errorId} />
            <SwitchField
              meta={fields.auto_send_enabled}
              label="Automatic post notifications"
              hint="Email active subscribers when a chapter, tip or resource is published."
            />
            <InputField meta={fields.welcome_email_subject} label="Welcome email subject" />
            <TextareaField meta={fields.welcome_email_body} label="Welcome email message" rows={5} />
            {canEdit && (
              <div>
                <Button type="submit" disabled={busy}>
                  <Save aria-hidden="true" className="size-4" />
                  {busy ? "Saving..." : "Save Newsletter Settings"}
                </Button>
              </div>
            )}
          </fieldset>
        </fetcher.Form>
      </CardContent>
    </Card>
  );
}
