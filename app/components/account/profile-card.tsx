import { UserRound } from "lucide-react";
import { InputField } from "~/components/forms/fields";
import { IntentForm, useIntentForm } from "~/components/forms/intent-form";
import { SubmitButton } from "~/components/forms/submit-button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { TextField } from "~/components/ui/field";
import { nameSchema } from "./schemas";

/** The user's full name, shown in the dashboard's greeting and the account menu. */
export function ProfileCard({ name, email }: { name: string; email: string }) {
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
          {/* key: after a save the form starts again from the stored (tidied) name. */}
          <NameForm key={name} name={name} email={email} />
        </CardContent>
      </Card>
    </section>
  );
}

function NameForm({ name, email }: { name: string; email: string }) {
  const update = useIntentForm({ intent: "update-name", schema: nameSchema, defaultValue: { name } });
  const { fields, busy } = update;
  return (
    <IntentForm state={update} className="flex flex-col gap-4" data-testid="name-form" aria-labelledby="profile-title">
      <TextField label="Email" value={email} readOnly autoComplete="username" hint="Your sign-in address." />
      <InputField meta={fields.name} label="Full name" autoComplete="name" />
      <div>
        <SubmitButton busy={busy} pendingLabel="Saving…">
          Save name
        </SubmitButton>
      </div>
    </IntentForm>
  );
}
