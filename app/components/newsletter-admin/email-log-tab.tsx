import { RotateCcw } from "lucide-react";
import { Form } from "react-router";
import { Badge, type BadgeTone } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import type { EmailLogEntry, OutboxStatus } from "../../../server/mail/outbox.ts";
import { formatDateTime, TableHead } from "./shared";

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

export function EmailLogTab({ emails, counts }: { emails: EmailLogEntry[]; counts: Record<OutboxStatus, number> }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Email log</CardTitle>
        <CardDescription data-testid="email-counts">
          {Object.entries(STATUS_LABELS)
            .map(([status, label]) => `${label}: ${counts[status as OutboxStatus]}`)
            .join(" · ")}
        </CardDescription>
      </CardHeader>
      <CardContent className="overflow-x-auto">
        {emails.length === 0 ? (
          <p className="text-sm text-fg-muted" data-testid="emails-empty">
            No emails yet.
          </p>
        ) : (
          <table className="w-full text-left text-sm" data-testid="email-log-table">
            <caption className="sr-only">The most recent emails</caption>
            <TableHead columns={["Recipient", "Kind", "Status", "Attempts", "Last error", "Sent", "Actions"]} />
            <tbody>
              {emails.map((email) => (
                <tr
                  key={email.id}
                  className="border-b border-line align-top last:border-0"
                  data-testid={`email-${email.id}`}
                >
                  <td className="py-3 pr-4 text-fg break-all">{email.to_address}</td>
                  <td className="py-3 pr-4 text-fg-muted">{email.kind}</td>
                  <td className="py-3 pr-4">
                    <Badge tone={STATUS_TONES[email.status]}>{STATUS_LABELS[email.status]}</Badge>
                  </td>
                  <td className="py-3 pr-4 text-fg-muted tabular-nums">{email.attempts}</td>
                  <td className="max-w-xs py-3 pr-4 text-fg-muted break-words">{email.last_error || "—"}</td>
                  <td className="py-3 pr-4 whitespace-nowrap text-fg-muted">{formatDateTime(email.sent_at)}</td>
                  <td className="py-3 text-right">
                    {(email.status === "failed" || email.status === "unsent") && (
                      <Form method="post">
                        <input type="hidden" name="intent" value="retry-email" />
                        <input type="hidden" name="id" value={email.id} />
                        <Button
                          type="submit"
                          variant="secondary"
                          size="sm"
                          aria-label={`Retry the email to ${email.to_address}`}
                        >
                          <RotateCcw aria-hidden="true" className="size-4" />
                          Retry
                        </Button>
                      </Form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </CardContent>
    </Card>
  );
}
