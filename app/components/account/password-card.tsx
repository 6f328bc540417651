import { KeyRound } from "lucide-react";
import { InputField, SwitchField } from "~/components/forms/fields";
import { IntentForm, useIntentForm } from "~/components/forms/intent-form";
import { SubmitButton } from "~/components/forms/submit-button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { changePasswordSchema } from "./schemas";

/** Change password: the current one, then the new one twice (rules of password-policy.ts). */
export function PasswordCard({ email }: { email: string }) {
  const change = useIntentForm({
    intent: "change-password",
    schema: changePasswordSchema,
    defaultValue: { revokeOtherSessions: true },
  });
  const { fields, busy } = change;
  return (
    <section aria-labelledby="password-title">
      <Card>
        <CardHeader>
          <CardTitle id="password-title" className="flex items-center gap-2">
            <KeyRound aria-hidden="true" className="size-5 text-accent" />
            Password
          </CardTitle>
          <CardDescription>
            At least 12 characters; common passwords are refused. A passphrase of several words works well.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <IntentForm
            state={change}
            className="flex flex-col gap-4"
            data-testid="password-form"
            aria-labelledby="password-title"
          >
            {/* For password managers: whose password this is. */}
            <input type="text" name="username" value={email} autoComplete="username" readOnly hidden />
            <InputField
              type="password"
              meta={fields.currentPassword}
              label="Current password"
              autoComplete="current-password"
            />
            <InputField type="password" meta={fields.newPassword} label="New password" autoComplete="new-password" />
            <InputField
              type="password"
              meta={fields.confirmPassword}
              label="Confirm new password"
              autoComplete="new-password"
            />
            <SwitchField meta={fields.revokeOtherSessions} label="Sign out of all other sessions" />
            <div>
              <SubmitButton busy={busy} pendingLabel="Changing…">
                Change password
              </SubmitButton>
            </div>
          </IntentForm>
        </CardContent>
      </Card>
    </section>
  );
}
