import { Fingerprint } from "lucide-react";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { TextField } from "~/components/ui/field";
import type { AccountPasskey } from "../../../server/auth/account.ts";
import { AddPasskey } from "./add-passkey";
import { type ActionResult, DateTime, IntentForm, ResultMessage, resultFor, usePending } from "./shared";

/** Passkeys: sign in with the device's lock (fingerprint, face, PIN) instead of a password. */
export function PasskeysCard({ passkeys, result }: { passkeys: AccountPasskey[]; result: ActionResult }) {
  const own = resultFor(result, "passkey-rename", "passkey-delete");
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
          <ResultMessage result={own} testId="passkey-result" />
          {passkeys.length === 0 ? (
            <p className="text-sm text-fg-muted" data-testid="no-passkeys">
              No passkeys yet.
            </p>
          ) : (
            <ul className="flex flex-col divide-y divide-line rounded-md border border-line">
              {passkeys.map((passkey) => (
                <PasskeyRow key={passkey.id} passkey={passkey} result={own} />
              ))}
            </ul>
          )}
          <AddPasskey />
        </CardContent>
      </Card>
    </section>
  );
}

function PasskeyRow({ passkey, result }: { passkey: AccountPasskey; result: ActionResult }) {
  const renaming = usePending("passkey-rename", passkey.id);
  const removing = usePending("passkey-delete", passkey.id);
  const rename = result?.intent === "passkey-rename" && result.targetId === passkey.id ? result : undefined;
  const headingId = `passkey-${passkey.id}`;
  return (
    <li className="flex flex-col gap-3 p-4" data-testid="passkey-row">
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={headingId} className="font-medium text-fg" data-testid="passkey-label">
          {passkey.label}
        </h3>
        <Badge>{passkey.synced ? "Synced" : "This device only"}</Badge>
      </div>
      <p className="text-sm text-fg-muted">
        Added <DateTime iso={passkey.createdAt} />
      </p>
      <div className="flex flex-wrap gap-3">
        <details className="min-w-0 flex-1 rounded-md border border-line" open={Boolean(rename && !rename.ok)}>
          <summary className="cursor-pointer px-3 py-2 text-sm font-medium text-fg">
            Rename<span className="sr-only"> {passkey.label}</span>
          </summary>
          <IntentForm
            key={rename?.ok ? rename.at : "rename"}
            intent="passkey-rename"
            className="flex flex-col gap-3 px-3 pb-3"
            aria-label={`Rename ${passkey.label}`}
          >
            <input type="hidden" name="passkeyId" value={passkey.id} />
            <TextField
              label="Name"
              name="name"
              defaultValue={passkey.name ?? ""}
              maxLength={64}
              required
              error={rename?.fieldErrors?.name}
            />
            <div>
              <Button type="submit" variant="secondary" size="sm" disabled={renaming}>
                {renaming ? "Saving…" : "Save name"}
              </Button>
            </div>
          </IntentForm>
        </details>
        <details className="min-w-0 flex-1 rounded-md border border-line">
          <summary className="cursor-pointer px-3 py-2 text-sm font-medium text-danger">
            Remove<span className="sr-only"> {passkey.label}</span>
          </summary>
          <IntentForm
            intent="passkey-delete"
            className="flex flex-col gap-3 px-3 pb-3"
            aria-label={`Remove ${passkey.label}`}
          >
            <input type="hidden" name="passkeyId" value={passkey.id} />
            <p className="text-sm text-fg-muted">
              This passkey will no longer sign you in. This cannot be undone; you can add it again later.
            </p>
            <div>
              <Button type="submit" variant="danger" size="sm" disabled={removing} data-testid="passkey-remove">
                {removing ? "Removing…" : "Remove passkey"}
              </Button>
            </div>
          </IntentForm>
        </details>
      </div>
    </li>
  );
}
