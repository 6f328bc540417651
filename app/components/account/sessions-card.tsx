import { Laptop, LogOut } from "lucide-react";
import { IntentButton } from "~/components/forms/intent-button";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import type { AccountSession } from "../../../server/auth/account.ts";
import { DateTime } from "./shared";

/** Where the account is signed in, with a way to end any session but this one. */
export function SessionsCard({ sessions }: { sessions: AccountSession[] }) {
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
          <ul className="flex flex-col divide-y divide-line rounded-md border border-line">
            {sessions.map((session) => (
              <SessionRow key={session.id} session={session} />
            ))}
          </ul>
          {others > 0 && (
            <div>
              <IntentButton
                intent="revoke-other-sessions"
                variant="secondary"
                pendingLabel="Signing out…"
                data-testid="revoke-other-sessions"
              >
                <LogOut aria-hidden="true" className="size-4" />
                Sign out other sessions ({others})
              </IntentButton>
            </div>
          )}
        </CardContent>
      </Card>
    </section>
  );
}

function SessionRow({ session }: { session: AccountSession }) {
  return (
    <li
      className="flex flex-col gap-3 p-4 sm:flex-row sm:items-start sm:justify-between"
      data-testid="session-row"
      data-current={session.current ? "true" : undefined}
    >
      <div className="flex min-w-0 flex-col gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="font-medium break-words text-fg" title={session.userAgent ?? undefined}>
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
          <dd className="font-mono break-all text-fg">{session.ipAddress || "unknown"}</dd>
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
        <div className="shrink-0">
          <IntentButton
            intent="revoke-session"
            fields={{ sessionId: session.id }}
            variant="danger"
            size="sm"
            aria-label={`Sign out ${session.device}`}
            pendingLabel="Signing out…"
            data-testid="revoke-session"
          >
            <LogOut aria-hidden="true" className="size-4" />
            Sign out
          </IntentButton>
        </div>
      )}
    </li>
  );
}
