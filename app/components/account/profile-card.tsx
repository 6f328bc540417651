import { UserRound } from "lucide-react";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { TextField } from "~/components/ui/field";
import { type ActionResult, IntentForm, ResultMessage, resultFor, usePending } from "./shared";

/** The user's full name, shown in the dashboard's greeting and the account menu. */
export function ProfileCard({ name, email, result }: { name: string; email: string; result: ActionResult }) {
  const own = resultFor(result, "update-name");
  const pending = usePending("update-name");
  return (
    <section aria-labelledby="profile-title">
      <Card>
        <CardHeader>
          <CardTitle id="profile-title" className="flex items-center gap-2">
            <UserRound aria-hidden="true" className="size-5 text-accent" />
            Profile
          </CardTitle>
          <CardDescription>Your name appears in the dashboard greeting and the account menu.</CardDescription>
        </CardHeader>
        <CardContent>
          <IntentForm
            intent="update-name"
            className="flex flex-col gap-4"
            testId="name-form"
            aria-labelledby="profile-title"
          >
            <TextField label="Email" value={email} readOnly autoComplete="username" hint="Your sign-in address." />
            {/* key: after a save the field shows the stored (trimmed) name. */}
            <TextField
              key={own?.ok ? own.at : "name"}
              label="Full name"
              name="name"
              defaultValue={name}
              autoComplete="name"
              maxLength={100}
              required
              error={own?.fieldErrors?.name}
            />
            <div className="flex flex-wrap items-center gap-3">
              <Button type="submit" disabled={pending}>
                {pending ? "Saving…" : "Save name"}
              </Button>
            </div>
            <ResultMessage result={own} testId="name-result" />
          </IntentForm>
        </CardContent>
      </Card>
    </section>
  );
}
