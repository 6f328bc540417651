import { BellOff } from "lucide-react";
import { Badge, type BadgeTone } from "~/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/empty-state";
import { Table, TableBody, TableCell, TableHead, TableRow } from "~/components/ui/table";
import type { NotificationWithProgress } from "../../../server/newsletter/notifications.ts";
import { formatDateTime } from "./shared";

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

/** Progress per notification: one row per published item, with its emails queued, sent and failed. */
export function NotificationsCard({ notifications }: { notifications: NotificationWithProgress[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Notifications</CardTitle>
        <CardDescription>The emails about published content, per item.</CardDescription>
      </CardHeader>
      <CardContent>
        {notifications.length === 0 ? (
          <EmptyState icon={BellOff} testId="notifications-empty">
            No notifications yet.
          </EmptyState>
        ) : (
          <Table data-testid="notifications-table">
            <caption className="sr-only">Progress of the most recent notifications</caption>
            <TableHead columns={["Title", "Type", "Status", "Scheduled for", "Sent at", "Queued", "Sent", "Failed"]} />
            <TableBody>
              {notifications.map((notification) => {
                const status = NOTIFICATION_STATUS[notification.status];
                return (
                  <TableRow key={notification.id} className="align-top" data-testid={`notification-${notification.id}`}>
                    <TableCell label="Title" className="break-words text-fg">
                      {notification.title}
                    </TableCell>
                    <TableCell label="Type" className="text-fg-muted">
                      {ITEM_TYPES[notification.item_type]}
                    </TableCell>
                    <TableCell label="Status">
                      <Badge tone={status.tone}>{status.label}</Badge>
                    </TableCell>
                    <TableCell label="Scheduled for" className="text-fg-muted sm:whitespace-nowrap">
                      {formatDateTime(notification.scheduled_for)}
                    </TableCell>
                    <TableCell label="Sent at" className="text-fg-muted sm:whitespace-nowrap">
                      {formatDateTime(notification.sent_at)}
                    </TableCell>
                    <TableCell label="Queued" className="text-fg-muted tabular-nums">
                      {notification.progress.queued}
                    </TableCell>
                    <TableCell label="Sent" className="text-fg-muted tabular-nums">
                      {notification.progress.sent}
                    </TableCell>
                    <TableCell label="Failed" className="text-fg-muted tabular-nums">
                      {notification.progress.failed}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
