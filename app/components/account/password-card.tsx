import { KeyRound } from "lucide-react";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { TextField } from "~/components/ui/field";
import { type ActionResult, IntentForm, ResultMessage, resultFor, usePending } from "./shared";

/** Change password: the current one, then the new one twice (rules of password-policy.ts). */
export function PasswordCard({ email, result }: { email: string; result: ActionResult }) {
  const own = resultFor(result, "change-password");
  const pending = usePending("change-password");
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
          {/* key: the fields empty themselves after a change. */}
          <IntentForm
            key={own?.ok ? own.at : "password"}
            intent="change-password"
            className="flex flex-col gap-4"
            testId="password-form"
            aria-labelledby="password-title"
          >
            {/* For password managers: whose password this is. */}
            <input type="text" name="username" value={email} autoComplete="username" readOnly hidden />
            <TextField
              label="Current password"
              name="currentPassword"
              type="password"
              autoComplete="current-password"
              required
              error={own?.fieldErrors?.currentPassword}
            />
            <TextField
              label="New password"
              name="newPassword"
              type="password"
              autoComplete="new-password"
              minLength={12}
              maxLength={128}
              required
              error={own?.fieldErrors?.newPassword}
            />
            <TextField
              label="Confirm new password"
              name="confirmPassword"
              type="password"
              autoComplete="new-password"
              minLength={12}
              maxLength={128}
              required
              error={own?.fieldErrors?.confirmPassword}
            />
            <label className="flex items-start gap-2 text-sm text-fg">
              <input
                type="checkbox"
                name="revokeOtherSessions"
                defaultChecked
                className="mt-0.5 size-4 accent-accent"
              />
              <span>Sign out of all other sessions</span>
            </label>
            <div>
              <Button type="submit" disabled={pending}>
                {pending ? "Changing…" : "Change password"}
              </Button>
            </div>
            <ResultMessage result={own} testId="password-result" />
          </IntentForm>
        </CardContent>
      </Card>
    </section>
  );
}
