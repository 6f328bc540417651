import { Download, Search, Send } from "lucide-react";
import { Form } from "react-router";
import { Badge, type BadgeTone } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { TextField } from "~/components/ui/field";
import { SelectField } from "~/components/ui/select";
import { TableHead } from "~/components/ui/table-head";
import type { SubscriberPage, SubscriberStatus } from "../../../server/newsletter/admin.ts";
import { ConfirmDelete, formatDate, Pagination } from "./shared";

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

export function SubscriberStatusBadge({ status }: { status: SubscriberStatus }) {
  return <Badge tone={STATUS_TONES[status]}>{STATUS_LABELS[status]}</Badge>;
}

export interface SubscribersTabProps {
  result: SubscriberPage;
  query: { q: string; status: SubscriberStatus | "" };
  search: URLSearchParams;
  /** Whether "Resend confirmation" is available (the subscription service provides it). */
  canResend: boolean;
}

export function SubscribersTab({ result, query, search, canResend }: SubscribersTabProps) {
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
            options={[
              { value: "all", label: "All" },
              ...Object.entries(STATUS_LABELS).map(([value, label]) => ({ value, label })),
            ]}
          />
          <Button type="submit" variant="secondary" className="sm:mt-7">
            <Search aria-hidden="true" className="size-4" />
            Search
          </Button>
        </Form>

        {result.subscribers.length === 0 ? (
          <p className="text-sm text-fg-muted" data-testid="subscribers-empty">
            No subscribers found.
          </p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm" data-testid="subscribers-table">
              <caption className="sr-only">Newsletter subscribers</caption>
              <TableHead columns={["Email", "Status", "Subscribed", "Actions"]} />
              <tbody>
                {result.subscribers.map((subscriber) => (
                  <tr
                    key={subscriber.id}
                    className="border-b border-line last:border-0"
                    data-testid={`subscriber-${subscriber.email}`}
                  >
                    <td className="py-3 pr-4 text-fg break-all">{subscriber.email}</td>
                    <td className="py-3 pr-4">
                      <SubscriberStatusBadge status={subscriber.status} />
                    </td>
                    <td className="py-3 pr-4 whitespace-nowrap text-fg-muted">
                      {formatDate(subscriber.subscribed_at)}
                    </td>
                    <td className="py-3 text-right">
                      <div className="flex flex-wrap items-start justify-end gap-2">
                        {canResend && subscriber.status === "pending" && (
                          <Form method="post">
                            <input type="hidden" name="intent" value="resend-confirmation" />
                            <input type="hidden" name="id" value={subscriber.id} />
                            <Button
                              type="submit"
                              variant="secondary"
                              size="sm"
                              aria-label={`Resend confirmation to ${subscriber.email}`}
                            >
                              <Send aria-hidden="true" className="size-4" />
                              Resend
                            </Button>
                          </Form>
                        )}
                        <ConfirmDelete
                          intent="delete-subscriber"
                          id={subscriber.id}
                          label={`Delete ${subscriber.email}`}
                          buttonLabel="Delete"
                          confirmLabel="Delete permanently"
                        >
                          Delete the subscriber <strong className="break-all">{subscriber.email}</strong>? This action
                          is irreversible.
                        </ConfirmDelete>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
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
