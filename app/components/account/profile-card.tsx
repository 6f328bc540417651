import { getFormProps } from "@conform-to/react";
import { UserRound } from "lucide-react";
import { FormErrors, InputField } from "~/components/forms/fields";
import { useActionFetcher } from "~/components/forms/use-action-fetcher";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { TextField } from "~/components/ui/field";
import { useSchemaForm } from "~/lib/forms";
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
  const { fetcher, lastResult, busy } = useActionFetcher("update-name");
  const [form, fields] = useSchemaForm({ schema: nameSchema, id: "update-name", lastResult, defaultValue: { name } });
  return (
    <fetcher.Form
      method="post"
      {...getFormProps(form)}
      className="flex flex-col gap-4"
      data-testid="name-form"
      aria-labelledby="profile-title"
    >
      <input type="hidden" name="intent" value="update-name" />
      <FormErrors errors={form.errors} id={form.errorId} />
      <TextField label="Email" value={email} readOnly autoComplete="username" hint="Your sign-in address." />
      <InputField meta={fields.name} label="Full name" autoComplete="name" />
      <div>
        <Button type="submit" disabled={busy}>
          {busy ? "Saving…" : "Save name"}
        </Button>
      </div>
    </fetcher.Form>
  );
}
