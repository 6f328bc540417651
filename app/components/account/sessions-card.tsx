import { Laptop, LogOut } from "lucide-react";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import type { AccountSession } from "../../../server/auth/account.ts";
import { type ActionResult, DateTime, IntentForm, ResultMessage, resultFor, usePending } from "./shared";

/** Where the account is signed in, with a way to end any session but this one. */
export function SessionsCard({ sessions, result }: { sessions: AccountSession[]; result: ActionResult }) {
  const own = resultFor(result, "revoke-session", "revoke-other-sessions");
  const revokingOthers = usePending("revoke-other-sessions");
  const others = sessions.filter((session) => !session.current).length;
  return (
    <section aria-labelledby="sessions-title" data-testid="sessions">
      <Card>
        <CardHeader>
          <CardTitle id="sessions-title" className="flex items-center gap-2">
            <Laptop aria-hidden="true" className="size-5 text-accent" />
            Sessions
          </CardTitle>
          <CardDescription>
            The browsers and devices signed in to your account. Sign out any you do not recognise, then change your
            password.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <ResultMessage result={own} testId="session-result" />
          <ul className="flex flex-col divide-y divide-line rounded-md border border-line">
            {sessions.map((session) => (
              <SessionRow key={session.id} session={session} />
            ))}
          </ul>
          {others > 0 && (
            <IntentForm intent="revoke-other-sessions" aria-label="Sign out other sessions">
              <Button type="submit" variant="secondary" disabled={revokingOthers} data-testid="revoke-other-sessions">
                <LogOut aria-hidden="true" className="size-4" />
                {revokingOthers ? "Signing out…" : `Sign out other sessions (${others})`}
              </Button>
            </IntentForm>
          )}
        </CardContent>
      </Card>
    </section>
  );
}

function SessionRow({ session }: { session: AccountSession }) {
  const revoking = usePending("revoke-session", session.id);
  return (
    <li
      className="flex flex-col gap-3 p-4 sm:flex-row sm:items-start sm:justify-between"
      data-testid="session-row"
      data-current={session.current ? "true" : undefined}
    >
      <div className="flex min-w-0 flex-col gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="font-medium text-fg" title={session.userAgent ?? undefined}>
            {session.device}
          </h3>
          {session.current && (
            <Badge tone="success" data-testid="this-device">
              This device
            </Badge>
          )}
        </div>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm text-fg-muted">
          <dt>IP address</dt>
          <dd className="break-all font-mono text-fg">{session.ipAddress || "unknown"}</dd>
          <dt>Signed in</dt>
          <dd className="text-fg">
            <DateTime iso={session.createdAt} />
          </dd>
          <dt>Last active</dt>
          <dd className="text-fg">
            <DateTime iso={session.lastActiveAt} />
          </dd>
        </dl>
      </div>
      {!session.current && (
        <IntentForm intent="revoke-session" aria-label={`Sign out ${session.device}`}>
          <input type="hidden" name="sessionId" value={session.id} />
          <Button type="submit" variant="danger" size="sm" disabled={revoking} data-testid="revoke-session">
            {revoking ? "Signing out…" : "Sign out"}
            <span className="sr-only"> this session ({session.device})</span>
          </Button>
        </IntentForm>
      )}
    </li>
  );
}
