import { RotateCcw } from "lucide-react";
import { Form } from "react-router";
import { Badge, type BadgeTone } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { TableHead } from "~/components/ui/table-head";
import type { EmailLogEntry, OutboxStatus } from "../../../server/mail/outbox.ts";
import type { NotificationWithProgress } from "../../../server/newsletter/notifications.ts";
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

const NOTIFICATION_STATUS: Record<NotificationWithProgress["status"], { label: string; tone: BadgeTone }> = {
  pending: { label: "Scheduled", tone: "neutral" },
  sent: { label: "Sent", tone: "success" },
  cancelled: { label: "Cancelled", tone: "warning" },
};

const ITEM_TYPES: Record<NotificationWithProgress["item_type"], string> = {
  chapter: "Chapter",
  tip: "Tip",
  resource: "Resource",
};

/** Progress per notification (issue 5): one row per published item, with its emails queued, sent and failed. */
export function NotificationsSection({ notifications }: { notifications: NotificationWithProgress[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Notifications</CardTitle>
        <CardDescription>The emails about published content, per item.</CardDescription>
      </CardHeader>
      <CardContent className="overflow-x-auto">
        {notifications.length === 0 ? (
          <p className="text-sm text-fg-muted" data-testid="notifications-empty">
            No notifications yet.
          </p>
        ) : (
          <table className="w-full text-left text-sm" data-testid="notifications-table">
            <caption className="sr-only">Progress of the most recent notifications</caption>
            <TableHead columns={["Title", "Type", "Status", "Scheduled for", "Sent at", "Queued", "Sent", "Failed"]} />
            <tbody>
              {notifications.map((notification) => {
                const status = NOTIFICATION_STATUS[notification.status];
                return (
                  <tr
                    key={notification.id}
                    className="border-b border-line align-top last:border-0"
                    data-testid={`notification-${notification.id}`}
                  >
                    <td className="py-3 pr-4 text-fg break-words">{notification.title}</td>
                    <td className="py-3 pr-4 text-fg-muted">{ITEM_TYPES[notification.item_type]}</td>
                    <td className="py-3 pr-4">
                      <Badge tone={status.tone}>{status.label}</Badge>
                    </td>
                    <td className="py-3 pr-4 whitespace-nowrap text-fg-muted">
                      {formatDateTime(notification.scheduled_for)}
                    </td>
                    <td className="py-3 pr-4 whitespace-nowrap text-fg-muted">
                      {formatDateTime(notification.sent_at)}
                    </td>
                    <td className="py-3 pr-4 text-fg-muted tabular-nums">{notification.progress.queued}</td>
                    <td className="py-3 pr-4 text-fg-muted tabular-nums">{notification.progress.sent}</td>
                    <td className="py-3 text-fg-muted tabular-nums">{notification.progress.failed}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </CardContent>
    </Card>
  );
}

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
      <NotificationsSection notifications={notifications} />
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
    </>
  );
}
