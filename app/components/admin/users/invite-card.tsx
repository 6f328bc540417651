import { Send } from "lucide-react";
import { InputField, SelectField } from "~/components/forms/fields";
import { IntentForm, useIntentForm } from "~/components/forms/intent-form";
import { SubmitButton } from "~/components/forms/submit-button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import type { FormActionData } from "~/lib/forms";
import { inviteSchema, ROLE_OPTIONS } from "./schemas";

/** What the invite intent answers besides the toast: the link, for when the email does not arrive. */
export interface InvitationDetails {
  invitationUrl?: string;
}

/** Invite by email: the address and the role; after sending, the link is shown once. */
export function InviteCard() {
  const invite = useIntentForm({ intent: "invite", schema: inviteSchema, defaultValue: { role: "editor" } });
  const { fields, busy, answer } = invite;
  const invitationUrl = (answer as (FormActionData & InvitationDetails) | undefined)?.invitationUrl;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Invite a user</CardTitle>
        <CardDescription>
          The person receives an email with a link to choose their name and password. The link expires in 7 days and
          works once.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <IntentForm state={invite} className="flex flex-col gap-4" data-testid="invite-form">
          <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
            <InputField meta={fields.email} label="Email" type="email" autoComplete="off" className="sm:flex-1" />
            <SelectField meta={fields.role} label="Role" options={ROLE_OPTIONS} className="sm:w-44" />
            <SubmitButton busy={busy} pendingLabel="Sending…" icon={Send} className="sm:mt-6.5">
              Send invitation
            </SubmitButton>
          </div>
        </IntentForm>
        {invitationUrl && (
          <div className="rounded-md border border-line p-3 text-sm" data-testid="invitation-link">
            <p className="text-fg-muted">If the email does not arrive, you can share this link with them directly:</p>
            <p className="mt-1 font-mono break-all text-fg">{invitationUrl}</p>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
