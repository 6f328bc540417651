import { MessageSquareText, Trash2 } from "lucide-react";
import { InputField } from "~/components/forms/fields";
import { FormDialog } from "~/components/forms/form-dialog";
import { IntentForm, useIntentForm } from "~/components/forms/intent-form";
import { SubmitButton } from "~/components/forms/submit-button";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import type { PhoneFactor } from "../../../server/auth/phone-factor.ts";
import { ConfirmPasswordField } from "./confirm-password-field";
import { noFieldsSchema, phoneCodeSchema, phoneEnrolSchema, phoneRemoveSchema } from "./schemas";

/**
 * The phone as a second factor: a number (with the password), then the code texted to
 * it confirms it; from then on sign-in can text a code instead of asking the
 * authenticator app. The card says plainly that it is the weakest of the three.
 */
export function PhoneCard({ phone, email }: { phone: PhoneFactor | null; email: string }) {
  return (
    <section aria-labelledby="phone-factor-title" data-testid="phone-factor">
      <Card>
        <CardHeader>
          <div className="flex flex-wrap items-center gap-3">
            <CardTitle id="phone-factor-title" className="flex items-center gap-2">
              <MessageSquareText aria-hidden="true" className="size-5 text-accent" />
              Sign-in codes by text message
            </CardTitle>
            <Badge tone={phone?.verified ? "success" : "neutral"} data-testid="phone-factor-status">
              {phone?.verified ? "On" : "Off"}
            </Badge>
          </div>
          <CardDescription>Sign-in can text a 6-digit code to your phone after your password.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <p className="rounded-md border border-line px-3 py-2 text-sm text-fg" data-testid="phone-factor-warning">
            A text message is a weaker second factor than an authenticator app or a passkey: messages can be
            intercepted, and a phone number can be moved to another SIM card by someone who fools your carrier. Use it
            as a fallback, not as your only second factor.
          </p>
          {phone?.verified ? (
            <>
              <p className="text-sm text-fg">
                Codes are sent to <span className="font-medium break-all">{phone.phoneNumber}</span>.
              </p>
              <RemovePhone email={email} />
            </>
          ) : phone ? (
            <ConfirmPhone phoneNumber={phone.phoneNumber} email={email} />
          ) : (
            <EnrolPhone email={email} />
          )}
        </CardContent>
      </Card>
    </section>
  );
}

/** Step 1: the number and the password again; a code is texted to the number. */
function EnrolPhone({ email }: { email: string }) {
  const enrol = useIntentForm({ intent: "phone-enrol", schema: phoneEnrolSchema });
  const { fields, busy } = enrol;
  return (
    <IntentForm
      state={enrol}
      className="flex flex-col gap-4"
      data-testid="phone-enrol-form"
      aria-label="Set up sign-in codes by text message"
    >
      <InputField
        meta={fields.phoneNumber}
        inputMode="tel"
        label="Mobile phone number"
        hint="In international format, starting with + and the country code."
        autoComplete="tel"
        className="max-w-sm"
      />
      <ConfirmPasswordField email={email} meta={fields.password} className="max-w-sm" />
      <div>
        <SubmitButton busy={busy} pendingLabel="Sending…">
          Text me a code
        </SubmitButton>
      </div>
    </IntentForm>
  );
}

/** Step 2: the code from the text message; a new code on request; or another number. */
function ConfirmPhone({ phoneNumber, email }: { phoneNumber: string; email: string }) {
  const verify = useIntentForm({ intent: "phone-verify", schema: phoneCodeSchema });
  const resend = useIntentForm({ intent: "phone-resend", schema: noFieldsSchema });
  const { fields, busy } = verify;
  return (
    <div className="flex flex-col gap-4" data-testid="phone-enrolment">
      <p className="text-sm text-fg">
        A code was sent to <span className="font-medium break-all">{phoneNumber}</span>. Enter it to confirm the number:
        codes by text message are on only once it is confirmed.
      </p>
      <IntentForm
        state={verify}
        className="flex flex-col gap-4"
        data-testid="phone-verify-form"
        aria-label="Confirm your phone number"
      >
        <InputField
          meta={fields.code}
          label="Code from the text message"
          inputMode="numeric"
          autoComplete="one-time-code"
          className="max-w-48"
        />
        <div>
          <SubmitButton busy={busy} pendingLabel="Confirming…">
            Confirm and turn on
          </SubmitButton>
        </div>
      </IntentForm>
      <div className="flex flex-wrap items-center gap-3">
        <IntentForm state={resend} data-testid="phone-resend-form" aria-label="Send a new code">
          <SubmitButton variant="secondary" busy={resend.busy} pendingLabel="Sending…">
            Send a new code
          </SubmitButton>
        </IntentForm>
        <RemovePhone email={email} pending />
      </div>
    </div>
  );
}

/** Removes the number; while it is still pending, to start again with another one. */
function RemovePhone({ email, pending = false }: { email: string; pending?: boolean }) {
  return (
    <div>
      <FormDialog
        title="Remove your phone number"
        description="Sign-in will no longer text you codes. Your authenticator app and passkeys are not affected."
        trigger={
          <Button variant={pending ? "ghost" : "danger"}>
            <Trash2 aria-hidden="true" className="size-4" />
            {pending ? "Use another number" : "Remove phone number"}
          </Button>
        }
        schema={phoneRemoveSchema}
        intent="phone-remove"
        formId="phone-remove"
        submitLabel="Remove"
        pendingLabel="Removing…"
      >
        {(fields) => <ConfirmPasswordField email={email} meta={fields.password} autoFocus />}
      </FormDialog>
    </div>
  );
}
