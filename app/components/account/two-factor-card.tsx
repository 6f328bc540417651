import { ShieldCheck } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { TextField } from "~/components/ui/field";
import type { TotpEnrolment, TwoFactorState } from "../../../server/auth/account.ts";
import { BackupCodes } from "./backup-codes";
import { type ActionResult, IntentForm, ResultMessage, resultFor, usePending } from "./shared";

export interface TwoFactorCardProps {
  /** From the database: only a factor confirmed by a code is "on" (spec section 4). */
  state: TwoFactorState;
  email: string;
  result: ActionResult;
}

/**
 * TOTP two-factor: set up (password → QR code and key → a first code confirms it →
 * backup codes shown once), new backup codes, turn off.
 */
export function TwoFactorCard({ state, email, result }: TwoFactorCardProps) {
  const own = resultFor(result, "totp-enable", "totp-verify", "totp-disable", "backup-codes");
  const enrolment = state !== "on" ? own?.enrolment : undefined;
  const backupCodes = own?.ok ? own.backupCodes : undefined;

  return (
    <section aria-labelledby="two-factor-title" data-testid="two-factor">
      <Card>
        <CardHeader>
          <div className="flex flex-wrap items-center gap-3">
            <CardTitle id="two-factor-title" className="flex items-center gap-2">
              <ShieldCheck aria-hidden="true" className="size-5 text-accent" />
              Two-factor authentication
            </CardTitle>
            {state === "on" ? (
              <Badge tone="success" data-testid="two-factor-status">
                On
              </Badge>
            ) : (
              <Badge data-testid="two-factor-status">Off</Badge>
            )}
          </div>
          <CardDescription>
            Sign-in asks for a 6-digit code from an authenticator app (or a backup code) after your password.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <ResultMessage result={own} testId="two-factor-result" />
          {backupCodes && backupCodes.length > 0 && <BackupCodes codes={backupCodes} />}
          {state === "on" ? (
            <TwoFactorOn email={email} result={own} />
          ) : enrolment ? (
            <Enrolment enrolment={enrolment} result={own} />
          ) : (
            <StartEnrolment email={email} pending={state === "pending"} result={own} />
          )}
        </CardContent>
      </Card>
    </section>
  );
}

function StartEnrolment({ email, pending, result }: { email: string; pending: boolean; result: ActionResult }) {
  const submitting = usePending("totp-enable");
  const own = resultFor(result, "totp-enable");
  return (
    <IntentForm
      intent="totp-enable"
      className="flex flex-col gap-4"
      testId="totp-enable-form"
      aria-label="Set up two-factor authentication"
    >
      {pending && (
        <p className="text-sm text-fg-muted" data-testid="two-factor-pending">
          A setup was started but never confirmed with a code, so it is not used at sign-in. Start again to get a new QR
          code.
        </p>
      )}
      <input type="text" name="username" value={email} autoComplete="username" readOnly hidden />
      <TextField
        label="Confirm your password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        error={own?.fieldErrors?.password}
        className="max-w-sm"
      />
      <div>
        <Button type="submit" disabled={submitting}>
          {submitting ? "Starting…" : "Set up two-factor authentication"}
        </Button>
      </div>
    </IntentForm>
  );
}

/** Groups of four characters, easier to type from the screen. */
function groupKey(secret: string): string {
  return secret.replace(/(.{4})/g, "$1 ").trim();
}

function Enrolment({ enrolment, result }: { enrolment: TotpEnrolment; result: ActionResult }) {
  const submitting = usePending("totp-verify");
  const own = resultFor(result, "totp-verify");
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
            className="mt-2 inline-block break-all rounded border border-line px-2 py-1 font-mono text-fg"
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
        intent="totp-verify"
        className="flex flex-col gap-4"
        testId="totp-verify-form"
        aria-label="Confirm two-factor authentication"
      >
        <input type="hidden" name="secret" value={enrolment.secret} />
        <TextField
          label="6-digit code"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9 ]{6,7}"
          maxLength={7}
          required
          error={own?.fieldErrors?.code}
          className="max-w-48"
        />
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={submitting}>
            {submitting ? "Confirming…" : "Confirm and turn on"}
          </Button>
          <Link to="." preventScrollReset className="text-sm text-fg-muted underline underline-offset-4 hover:text-fg">
            Cancel
          </Link>
        </div>
      </IntentForm>
    </div>
  );
}

function TwoFactorOn({ email, result }: { email: string; result: ActionResult }) {
  return (
    <div className="flex flex-col gap-3">
      <PasswordConfirmedAction
        intent="backup-codes"
        title="Create new backup codes"
        explanation="New codes replace the old ones, which stop working."
        pendingLabel="Creating…"
        variant="secondary"
        email={email}
        result={result}
      />
      <PasswordConfirmedAction
        intent="totp-disable"
        title="Turn off two-factor authentication"
        explanation="Sign-in will ask for your password only. Your authenticator app and backup codes stop working."
        pendingLabel="Turning off…"
        variant="danger"
        email={email}
        result={result}
      />
    </div>
  );
}

/** A disclosure holding a form that asks for the password again; open while its last try failed. */
function PasswordConfirmedAction(props: {
  intent: "backup-codes" | "totp-disable";
  title: string;
  explanation: string;
  pendingLabel: string;
  variant: "secondary" | "danger";
  email: string;
  result: ActionResult;
}) {
  const { intent, title, email } = props;
  const pending = usePending(intent);
  const own = resultFor(props.result, intent);
  return (
    <details className="rounded-md border border-line" open={Boolean(own && !own.ok)}>
      <summary className="cursor-pointer px-4 py-3 text-sm font-medium text-fg">{title}</summary>
      <IntentForm
        intent={intent}
        className="flex flex-col gap-4 px-4 pb-4"
        testId={`${intent}-form`}
        aria-label={title}
      >
        <p className="text-sm text-fg-muted">{props.explanation}</p>
        <input type="text" name="username" value={email} autoComplete="username" readOnly hidden />
        <TextField
          label="Confirm your password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          error={own?.fieldErrors?.password}
          className="max-w-sm"
        />
        <div>
          <Button type="submit" variant={props.variant} disabled={pending}>
            {pending ? props.pendingLabel : title}
          </Button>
        </div>
      </IntentForm>
    </details>
  );
}
