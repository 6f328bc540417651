import { InputField } from "~/components/forms/fields";
import { IntentForm, useIntentForm } from "~/components/forms/intent-form";
import { SubmitButton } from "~/components/forms/submit-button";
import { Button } from "~/components/ui/button";
import type { TotpEnrolment } from "../../../server/auth/account-changes.ts";
import { ConfirmPasswordField } from "./confirm-password-field";
import { totpCodeSchema, totpEnableSchema } from "./schemas";
import { detailsOf } from "./shared";

/** Step 1: the password again; the answer carries the QR code and the key. */
export function StartEnrolment({
  email,
  pending,
  onStarted,
}: {
  email: string;
  /** An earlier setup was never confirmed. */
  pending: boolean;
  onStarted: (enrolment: TotpEnrolment) => void;
}) {
  const enable = useIntentForm({
    intent: "totp-enable",
    schema: totpEnableSchema,
    onSuccess: (answer) => {
      const { enrolment } = detailsOf(answer);
      if (enrolment) onStarted(enrolment);
    },
  });
  const { fields, busy } = enable;
  return (
    <IntentForm
      state={enable}
      className="flex flex-col gap-4"
      data-testid="totp-enable-form"
      aria-label="Set up two-factor authentication"
    >
      {pending && (
        <p className="text-sm text-fg-muted" data-testid="two-factor-pending">
          A setup was started but never confirmed with a code, so it is not used at sign-in. Start again to get a new QR
          code.
        </p>
      )}
      <ConfirmPasswordField email={email} meta={fields.password} className="max-w-sm" />
      <div>
        <SubmitButton busy={busy} pendingLabel="Starting…">
          Set up two-factor authentication
        </SubmitButton>
      </div>
    </IntentForm>
  );
}

/** Groups of four characters, easier to type from the screen. */
function groupKey(secret: string): string {
  return secret.replace(/(.{4})/g, "$1 ").trim();
}

/** Steps 2 and 3: scan (or type the key), then confirm with a first code. */
export function ConfirmEnrolment({
  enrolment,
  onConfirmed,
  onCancel,
}: {
  enrolment: TotpEnrolment;
  onConfirmed: (backupCodes: string[]) => void;
  onCancel: () => void;
}) {
  const verify = useIntentForm({
    intent: "totp-verify",
    schema: totpCodeSchema,
    onSuccess: (answer) => onConfirmed(detailsOf(answer).backupCodes ?? []),
  });
  const { fields, busy } = verify;
  return (
    <div className="flex flex-col gap-4" data-testid="totp-enrolment">
      <ol className="flex list-decimal flex-col gap-4 pl-5 text-sm text-fg">
        <li>
          <p>Scan this QR code with your authenticator app.</p>
          <img
            src={enrolment.qrCode}
            alt="QR code for setting up two-factor authentication in an authenticator app"
            width={200}
            height={200}
            className="mt-3 rounded-md bg-white p-1"
            data-testid="totp-qr"
          />
        </li>
        <li>
          <p>Or enter this key in the app by hand (time-based, 6 digits, every 30 seconds):</p>
          <code
            className="mt-2 inline-block rounded border border-line px-2 py-1 font-mono text-fg"
            data-testid="totp-secret"
            data-secret={enrolment.secret}
          >
            {groupKey(enrolment.secret)}
          </code>
        </li>
        <li>
          <p>Enter the code the app shows to confirm. Two-factor authentication is on only once it is confirmed.</p>
        </li>
      </ol>
      <IntentForm
        state={verify}
        className="flex flex-col gap-4"
        data-testid="totp-verify-form"
        aria-label="Confirm two-factor authentication"
      >
        <InputField
          meta={fields.code}
          label="6-digit code"
          inputMode="numeric"
          autoComplete="one-time-code"
          className="max-w-48"
        />
        <div className="flex flex-wrap items-center gap-3">
          <SubmitButton busy={busy} pendingLabel="Confirming…">
            Confirm and turn on
          </SubmitButton>
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </IntentForm>
    </div>
  );
}
