import { Fingerprint, Pencil, Trash2 } from "lucide-react";
import { ConfirmAction } from "~/components/forms/confirm-action";
import { InputField } from "~/components/forms/fields";
import { FormDialog } from "~/components/forms/form-dialog";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/empty-state";
import { IconButton } from "~/components/ui/icon-button";
import type { AccountPasskey } from "../../../server/auth/account.ts";
import { AddPasskey } from "./add-passkey";
import { passkeyRenameSchema } from "./schemas";
import { DateTime } from "./shared";

/** Passkeys: sign in with the device's lock (fingerprint, face, PIN) instead of a password. */
export function PasskeysCard({ passkeys }: { passkeys: AccountPasskey[] }) {
  return (
    <section aria-labelledby="passkeys-title" data-testid="passkeys">
      <Card>
        <CardHeader>
          <CardTitle id="passkeys-title" className="flex items-center gap-2">
            <Fingerprint aria-hidden="true" className="size-5 text-accent" />
            Passkeys
          </CardTitle>
          <CardDescription>
            Sign in with your device's screen lock or a security key instead of a password and code.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {passkeys.length === 0 ? (
            <EmptyState icon={Fingerprint} testId="no-passkeys">
              No passkeys yet.
            </EmptyState>
          ) : (
            <ul className="flex flex-col divide-y divide-line rounded-md border border-line">
              {passkeys.map((passkey) => (
                <PasskeyRow key={passkey.id} passkey={passkey} />
              ))}
            </ul>
          )}
          <AddPasskey />
        </CardContent>
      </Card>
    </section>
  );
}

function PasskeyRow({ passkey }: { passkey: AccountPasskey }) {
  return (
    <li className="flex items-start justify-between gap-3 p-4" data-testid="passkey-row">
      <div className="flex min-w-0 flex-col gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="font-medium break-words text-fg" data-testid="passkey-label">
            {passkey.label}
          </h3>
          <Badge>{passkey.synced ? "Synced" : "This device only"}</Badge>
        </div>
        <p className="text-sm text-fg-muted">
          Added <DateTime iso={passkey.createdAt} />
        </p>
      </div>
      <div className="flex shrink-0 gap-1">
        <FormDialog
          title={`Rename ${passkey.label}`}
          trigger={<IconButton icon={Pencil} label={`Rename ${passkey.label}`} data-testid="passkey-rename" />}
          schema={passkeyRenameSchema}
          intent="passkey-rename"
          formId={`passkey-rename-${passkey.id}`}
          defaultValue={{ passkeyId: passkey.id, name: passkey.name ?? "" }}
          submitLabel="Save name"
        >
          {(fields) => (
            <>
              <input type="hidden" name={fields.passkeyId.name} value={passkey.id} />
              <InputField meta={fields.name} label="Name" />
            </>
          )}
        </FormDialog>
        <ConfirmAction
          trigger={
            <IconButton
              icon={Trash2}
              label={`Remove ${passkey.label}`}
              className="text-danger hover:text-danger"
              data-testid="passkey-remove"
            />
          }
          title={`Remove ${passkey.label}?`}
          description="This passkey will no longer sign you in. This action cannot be undone; you can add the device again later."
          confirmLabel="Remove passkey"
          pendingLabel="Removing…"
          intent="passkey-delete"
          fields={{ passkeyId: passkey.id }}
        />
      </div>
    </li>
  );
}
