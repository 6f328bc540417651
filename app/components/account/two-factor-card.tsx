import { ShieldCheck } from "lucide-react";
import { useEffect, useState } from "react";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import type { TwoFactorState } from "../../../server/auth/account.ts";
import type { TotpEnrolment } from "../../../server/auth/account-changes.ts";
import { BackupCodes } from "./backup-codes";
import { ConfirmEnrolment, StartEnrolment } from "./totp-enrolment";
import { TwoFactorOn } from "./two-factor-on";

export interface TwoFactorCardProps {
  /** From the database: only a factor confirmed by a code is "on" (the spec). */
  state: TwoFactorState;
  email: string;
}

/**
 * TOTP two-factor: set up (password → QR code and key → a first code confirms it →
 * backup codes shown once), new backup codes, turn off. The enrolment and the codes
 * live in this card's state: the server never shows them twice.
 */
export function TwoFactorCard({ state, email }: TwoFactorCardProps) {
  const [enrolment, setEnrolment] = useState<TotpEnrolment>();
  const [backupCodes, setBackupCodes] = useState<string[]>();
  // Turned off: the codes shown since setting it up no longer work.
  useEffect(() => {
    if (state === "off") setBackupCodes(undefined);
  }, [state]);
  return (
    <section aria-labelledby="two-factor-title" data-testid="two-factor">
      <Card>
        <CardHeader>
          <div className="flex flex-wrap items-center gap-3">
            <CardTitle id="two-factor-title" className="flex items-center gap-2">
              <ShieldCheck aria-hidden="true" className="size-5 text-accent" />
              Two-factor authentication
            </CardTitle>
            <Badge tone={state === "on" ? "success" : "neutral"} data-testid="two-factor-status">
              {state === "on" ? "On" : "Off"}
            </Badge>
          </div>
          <CardDescription>
            Sign-in asks for a 6-digit code from an authenticator app (or a backup code) after your password.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {backupCodes && backupCodes.length > 0 && <BackupCodes codes={backupCodes} />}
          {state === "on" ? (
            <TwoFactorOn email={email} onCodesReplaced={() => setBackupCodes(undefined)} />
          ) : enrolment ? (
            <ConfirmEnrolment
              enrolment={enrolment}
              onConfirmed={(codes) => {
                setEnrolment(undefined);
                setBackupCodes(codes);
              }}
              onCancel={() => setEnrolment(undefined)}
            />
          ) : (
            <StartEnrolment email={email} pending={state === "pending"} onStarted={setEnrolment} />
          )}
        </CardContent>
      </Card>
    </section>
  );
}
