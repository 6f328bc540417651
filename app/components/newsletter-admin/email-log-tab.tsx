import { MailOpen, RotateCcw } from "lucide-react";
import { IntentButton } from "~/components/forms/intent-button";
import { Badge, type BadgeTone } from "~/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/empty-state";
import { Table, TableActions, TableBody, TableCell, TableHead, TableRow } from "~/components/ui/table";
import type { EmailLogEntry, OutboxStatus } from "../../../server/mail/outbox.ts";
import type { NotificationWithProgress } from "../../../server/newsletter/notifications.ts";
import { NotificationsCard } from "./notifications-card";
import { formatDateTime } from "./shared";

const STATUS_TONES: Record<OutboxStatus, BadgeTone> = {
  pending: "neutral",
  sending: "neutral",
  sent: "success",
  failed: "warning",
  unsent: "warning",
};

const STATUS_LABELS: Record<OutboxStatus, string> = {
  pending: "Pending",
  sending: "Sending",
  sent: "Sent",
  failed: "Failed",
  unsent: "Not sent",
};

/** The most recent outbox rows with their state; a failed or unsent one can be queued again. */
export function EmailLogTab({
  emails,
  counts,
  notifications = [],
}: {
  emails: EmailLogEntry[];
  counts: Record<OutboxStatus, number>;
  notifications?: NotificationWithProgress[];
}) {
  return (
    <>
      <NotificationsCard notifications={notifications} />
      <Card>
        <CardHeader>
          <CardTitle>Email log</CardTitle>
          <CardDescription data-testid="email-counts">
            {Object.entries(STATUS_LABELS)
              .map(([status, label]) => `${label}: ${counts[status as OutboxStatus]}`)
              .join(" · ")}
          </CardDescription>
        </CardHeader>
        <CardContent>
          {emails.length === 0 ? (
            <EmptyState icon={MailOpen} testId="emails-empty">
              No emails yet.
            </EmptyState>
          ) : (
            <Table data-testid="email-log-table">
              <caption className="sr-only">The most recent emails</caption>
              <TableHead columns={["Recipient", "Kind", "Status", "Attempts", "Last error", "Sent", "Actions"]} />
              <TableBody>
                {emails.map((email) => (
                  <TableRow key={email.id} className="align-top" data-testid={`email-${email.id}`}>
                    <TableCell label="Recipient" className="break-all text-fg">
                      {email.to_address}
                    </TableCell>
                    <TableCell label="Kind" className="text-fg-muted">
                      {email.kind}
                    </TableCell>
                    <TableCell label="Status">
                      <Badge tone={STATUS_TONES[email.status]}>{STATUS_LABELS[email.status]}</Badge>
                    </TableCell>
                    <TableCell label="Attempts" className="text-fg-muted tabular-nums">
                      {email.attempts}
                    </TableCell>
                    <TableCell label="Last error" className="break-words text-fg-muted sm:max-w-xs">
                      {email.last_error || "—"}
                    </TableCell>
                    <TableCell label="Sent" className="text-fg-muted sm:whitespace-nowrap">
                      {formatDateTime(email.sent_at)}
                    </TableCell>
                    <TableActions>
                      {(email.status === "failed" || email.status === "unsent") && (
                        <IntentButton
                          intent="retry-email"
                          fields={{ id: email.id }}
                          variant="secondary"
                          size="sm"
                          aria-label={`Retry the email to ${email.to_address}`}
                          pendingLabel="Queuing..."
                        >
                          <RotateCcw aria-hidden="true" className="size-4" />
                          Retry
                        </IntentButton>
                      )}
                    </TableActions>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
    </>
  );
}
