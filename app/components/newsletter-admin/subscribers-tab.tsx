import { Download, Search, Send, Trash2, Users } from "lucide-react";
import { Form } from "react-router";
import { ConfirmAction } from "~/components/forms/confirm-action";
import { IntentButton } from "~/components/forms/intent-button";
import { Badge, type BadgeTone } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/empty-state";
import { TextField } from "~/components/ui/field";
import { SelectField } from "~/components/ui/select";
import { Table, TableActions, TableBody, TableCell, TableHead, TableRow } from "~/components/ui/table";
import type { SubscriberPage, SubscriberRow, SubscriberStatus } from "../../../server/newsletter/admin.ts";
import { formatDate, Pagination } from "./shared";

export const STATUS_LABELS: Record<SubscriberStatus, string> = {
  active: "Active",
  pending: "Pending",
  unsubscribed: "Unsubscribed",
  bounced: "Bounced",
};

const STATUS_TONES: Record<SubscriberStatus, BadgeTone> = {
  active: "success",
  pending: "warning",
  unsubscribed: "neutral",
  bounced: "neutral",
};

const STATUS_OPTIONS = [
  { value: "all", label: "All" },
  ...Object.entries(STATUS_LABELS).map(([value, label]) => ({ value, label })),
];

export function SubscriberStatusBadge({ status }: { status: SubscriberStatus }) {
  return <Badge tone={STATUS_TONES[status]}>{STATUS_LABELS[status]}</Badge>;
}

export interface SubscribersTabProps {
  result: SubscriberPage;
  query: { q: string; status: SubscriberStatus | "" };
  search: URLSearchParams;
}

/** Search by email, filter by status, 50 a page; resend confirmation (pending only) and delete. */
export function SubscribersTab({ result, query, search }: SubscribersTabProps) {
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-3">
        <CardTitle>Subscribers</CardTitle>
        <a
          href="/api/admin/newsletter/export.csv"
          download
          className={buttonVariants({ variant: "secondary", size: "sm" })}
        >
          <Download aria-hidden="true" className="size-4" />
          Export CSV
        </a>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <Form method="get" className="flex flex-col gap-4 sm:flex-row sm:items-start" role="search">
          <input type="hidden" name="tab" value="subscribers" />
          <TextField
            label="Search by email"
            name="q"
            type="search"
            maxLength={320}
            defaultValue={query.q}
            className="sm:flex-1"
            key={`q-${query.q}`}
          />
          <SelectField
            label="Status"
            name="status"
            className="sm:w-44"
            defaultValue={query.status || "all"}
            key={`status-${query.status}`}
            options={STATUS_OPTIONS}
          />
          <Button type="submit" variant="secondary" className="sm:mt-6.5">
            <Search aria-hidden="true" className="size-4" />
            Search
          </Button>
        </Form>

        {result.subscribers.length === 0 ? (
          <EmptyState icon={Users} testId="subscribers-empty">
            No subscribers found.
          </EmptyState>
        ) : (
          <Table data-testid="subscribers-table">
            <caption className="sr-only">Newsletter subscribers</caption>
            <TableHead columns={["Email", "Status", "Subscribed", "Actions"]} />
            <TableBody>
              {result.subscribers.map((subscriber) => (
                <SubscriberRowView key={subscriber.id} subscriber={subscriber} />
              ))}
            </TableBody>
          </Table>
        )}
        <Pagination
          page={result.page}
          pageCount={result.pageCount}
          total={result.total}
          search={search}
          noun={result.total === 1 ? "subscriber" : "subscribers"}
        />
      </CardContent>
    </Card>
  );
}

function SubscriberRowView({ subscriber }: { subscriber: SubscriberRow }) {
  return (
    <TableRow data-testid={`subscriber-${subscriber.email}`}>
      <TableCell label="Email" className="break-all text-fg">
        {subscriber.email}
      </TableCell>
      <TableCell label="Status">
        <SubscriberStatusBadge status={subscriber.status} />
      </TableCell>
      <TableCell label="Subscribed" className="whitespace-nowrap text-fg-muted">
        {formatDate(subscriber.subscribed_at)}
      </TableCell>
      <TableActions>
        {subscriber.status === "pending" && (
          <IntentButton
            intent="resend-confirmation"
            fields={{ id: subscriber.id }}
            variant="secondary"
            size="sm"
            aria-label={`Resend confirmation to ${subscriber.email}`}
            pendingLabel="Sending..."
          >
            <Send aria-hidden="true" className="size-4" />
            Resend
          </IntentButton>
        )}
        <ConfirmAction
          trigger={
            <Button variant="danger" size="sm" aria-label={`Delete ${subscriber.email}`}>
              <Trash2 aria-hidden="true" className="size-4" />
              Delete
            </Button>
          }
          title="Delete this subscriber?"
          description={
            <>
              <strong className="break-all text-fg">{subscriber.email}</strong> is removed from the newsletter for good.
              This action cannot be undone.
            </>
          }
          confirmLabel="Delete permanently"
          intent="delete-subscriber"
          fields={{ id: subscriber.id }}
        />
      </TableActions>
    </TableRow>
  );
}
