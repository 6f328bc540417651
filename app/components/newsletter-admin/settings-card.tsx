import { Save } from "lucide-react";
import { useId } from "react";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { TextField } from "~/components/ui/field";

/** Classes of a multi-line input, matching TextField's. */
export const TEXTAREA_CLASSES =
  "block w-full rounded-md border border-line bg-surface px-3 py-2 text-sm text-fg placeholder:text-fg-muted focus-visible:border-accent aria-invalid:border-danger disabled:opacity-60";

/**
 * A checkbox that looks like a switch: a real form field, so it
 * submits without JavaScript ("true" when on, nothing when off).
 */
export function SwitchField({
  name,
  label,
  description,
  defaultChecked,
  disabled,
}: {
  name: string;
  label: string;
  description?: string;
  defaultChecked: boolean;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="flex items-start justify-between gap-4">
      <div className="flex flex-col gap-1">
        <label htmlFor={id} className="text-sm font-medium text-fg">
          {label}
        </label>
        {description && (
          <p id={`${id}-description`} className="text-xs text-fg-muted">
            {description}
          </p>
        )}
      </div>
      <span className="relative inline-flex shrink-0">
        <input
          id={id}
          type="checkbox"
          name={name}
          value="true"
          defaultChecked={defaultChecked}
          disabled={disabled}
          aria-describedby={description ? `${id}-description` : undefined}
          className="peer absolute inset-0 z-10 size-full cursor-pointer opacity-0 disabled:cursor-not-allowed"
        />
        <span
          aria-hidden="true"
          className="h-6 w-11 rounded-full border border-line bg-surface transition-colors peer-checked:border-accent peer-checked:bg-accent peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-accent peer-disabled:opacity-60"
        />
        <span
          aria-hidden="true"
          className="pointer-events-none absolute top-1 left-1 size-4 rounded-full bg-fg-muted transition-transform peer-checked:translate-x-5 peer-checked:bg-on-accent"
        />
      </span>
    </div>
  );
}

export interface NewsletterSettingsValues {
  auto_send_enabled: string;
  welcome_email_subject: string;
  welcome_email_body: string;
}

/** The email settings card of the Newsletter Settings tab; read-only for editors. */
export function NewsletterSettingsCard({
  settings,
  canEdit,
}: {
  settings: NewsletterSettingsValues;
  canEdit: boolean;
}) {
  const navigation = useNavigation();
  const saving = navigation.state !== "idle" && navigation.formData?.get("intent") === "save-settings";
  const bodyId = useId();
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
        <Form method="post" className="flex flex-col gap-5" data-testid="newsletter-settings-form">
          <input type="hidden" name="intent" value="save-settings" />
          <SwitchField
            name="auto_send_enabled"
            label="Automatic post notifications"
            description="Email active subscribers when a chapter, tip or resource is published."
            defaultChecked={settings.auto_send_enabled === "true"}
            disabled={!canEdit}
          />
          <TextField
            label="Welcome email subject"
            name="welcome_email_subject"
            defaultValue={settings.welcome_email_subject}
            maxLength={200}
            required
            disabled={!canEdit}
          />
          <div className="flex flex-col gap-1.5">
            <label htmlFor={bodyId} className="text-sm font-medium text-fg">
              Welcome email message
            </label>
            <textarea
              id={bodyId}
              name="welcome_email_body"
              defaultValue={settings.welcome_email_body}
              rows={5}
              maxLength={5000}
              disabled={!canEdit}
              className={TEXTAREA_CLASSES}
            />
          </div>
          {canEdit && (
            <div>
              <Button type="submit" disabled={saving}>
                <Save aria-hidden="true" className="size-4" />
                {saving ? "Saving..." : "Save Newsletter Settings"}
              </Button>
            </div>
          )}
        </Form>
      </CardContent>
    </Card>
  );
}
