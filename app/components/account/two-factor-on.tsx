import { KeyRound, ShieldOff } from "lucide-react";
import { useState } from "react";
import { FormDialog } from "~/components/forms/form-dialog";
import { IntentForm, useIntentForm } from "~/components/forms/intent-form";
import { SubmitButton } from "~/components/forms/submit-button";
import { Button } from "~/components/ui/button";
import { Dialog, DialogClose, DialogContent, DialogFooter, DialogTrigger } from "~/components/ui/dialog";
import { BackupCodes } from "./backup-codes";
import { ConfirmPasswordField } from "./confirm-password-field";
import { backupCodesSchema, totpDisableSchema } from "./schemas";
import { detailsOf } from "./shared";

/** With two-factor on: new backup codes, or turn it off; each asks for the password again. */
export function TwoFactorOn({ email, onCodesReplaced }: { email: string; onCodesReplaced: () => void }) {
  return (
    <div className="flex flex-wrap gap-3">
      <BackupCodesDialog email={email} onCodesReplaced={onCodesReplaced} />
      <FormDialog
        title="Turn off two-factor authentication"
        description="Sign-in will ask for your password only. Your authenticator app and backup codes stop working."
        trigger={
          <Button variant="danger">
            <ShieldOff aria-hidden="true" className="size-4" />
            Turn off two-factor authentication
          </Button>
        }
        schema={totpDisableSchema}
        intent="totp-disable"
        formId="totp-disable"
        submitLabel="Turn off"
        pendingLabel="Turning off…"
      >
        {(fields) => <ConfirmPasswordField email={email} meta={fields.password} autoFocus />}
      </FormDialog>
    </div>
  );
}

/**
 * New backup codes in a dialog that shows them once made, until closed: the codes are
 * in the answer only, never stored where the page could show them again.
 */
function BackupCodesDialog({ email, onCodesReplaced }: { email: string; onCodesReplaced: () => void }) {
  const [open, setOpen] = useState(false);
  const [codes, setCodes] = useState<string[]>();
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setCodes(undefined);
      }}
    >
      <DialogTrigger asChild>
        <Button variant="secondary">
          <KeyRound aria-hidden="true" className="size-4" />
          Create new backup codes
        </Button>
      </DialogTrigger>
      <DialogContent title="Create new backup codes" description="New codes replace the old ones, which stop working.">
        {codes ? (
          <>
            <BackupCodes codes={codes} />
            <DialogFooter>
              <DialogClose asChild>
                <Button>Done</Button>
              </DialogClose>
            </DialogFooter>
          </>
        ) : (
          open && (
            <BackupCodesForm
              email={email}
              onCodes={(fresh) => {
                setCodes(fresh);
                onCodesReplaced();
              }}
            />
          )
        )}
      </DialogContent>
    </Dialog>
  );
}

function BackupCodesForm({ email, onCodes }: { email: string; onCodes: (codes: string[]) => void }) {
  const regenerate = useIntentForm({
    intent: "backup-codes",
    schema: backupCodesSchema,
    onSuccess: (answer) => onCodes(detailsOf(answer).backupCodes ?? []),
  });
  const { fields, busy } = regenerate;
  return (
    <IntentForm state={regenerate} className="flex flex-col gap-4" data-testid="backup-codes-form">
      <ConfirmPasswordField email={email} meta={fields.password} autoFocus />
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="secondary">Cancel</Button>
        </DialogClose>
        <SubmitButton busy={busy} pendingLabel="Creating…">
          Create new backup codes
        </SubmitButton>
      </DialogFooter>
    </IntentForm>
  );
}
