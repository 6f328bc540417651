import { ShieldPlus } from "lucide-react";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { TextField } from "~/components/ui/field";
import { TableHead } from "~/components/ui/table-head";
import type { SuppressionPage } from "../../../server/newsletter/admin.ts";
import { ConfirmDelete, formatDate, Pagination } from "./shared";

export interface SuppressionsTabProps {
  result: SuppressionPage;
  search: URLSearchParams;
  /** After a failed "add": the values and the error of the email field. */
  form?: { email?: string; reason?: string; error?: string; key?: unknown };
}

export function SuppressionsTab({ result, search, form }: SuppressionsTabProps) {
  return (
    <div className="flex flex-col gap-6">
      <Card>
        <CardHeader>
          <CardTitle>Add to suppression list</CardTitle>
          <CardDescription>An address on this list never receives any email from the site.</CardDescription>
        </CardHeader>
        <CardContent>
          <Form
            method="post"
            className="flex flex-col gap-4 sm:flex-row sm:items-start"
            data-testid="add-suppression-form"
            key={String(form?.key ?? "add")}
          >
            <input type="hidden" name="intent" value="add-suppression" />
            <TextField
              label="Email"
              name="email"
              type="email"
              required
              maxLength={320}
              autoComplete="off"
              className="sm:flex-1"
              defaultValue={form?.email ?? ""}
              error={form?.error}
            />
            <TextField
              label="Reason (optional)"
              name="reason"
              maxLength={500}
              className="sm:flex-1"
              defaultValue={form?.reason ?? ""}
            />
            <Button type="submit" className="sm:mt-7">
              <ShieldPlus aria-hidden="true" className="size-4" />
              Add
            </Button>
          </Form>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Suppression List</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {result.entries.length === 0 ? (
            <p className="text-sm text-fg-muted" data-testid="suppressions-empty">
              No suppressed addresses.
            </p>
          ) : (
            <div className="overflow-x-auto">
              <table className="w-full text-left text-sm" data-testid="suppressions-table">
                <caption className="sr-only">Suppressed addresses</caption>
                <TableHead columns={["Email", "Reason", "Added", "Actions"]} />
                <tbody>
                  {result.entries.map((entry) => (
                    <tr
                      key={entry.id}
                      className="border-b border-line last:border-0"
                      data-testid={`suppression-${entry.email}`}
                    >
                      <td className="py-3 pr-4 text-fg break-all">{entry.email}</td>
                      <td className="py-3 pr-4 text-fg-muted">{entry.reason || "—"}</td>
                      <td className="py-3 pr-4 whitespace-nowrap text-fg-muted">{formatDate(entry.added_at)}</td>
                      <td className="py-3 text-right">
                        <ConfirmDelete
                          intent="remove-suppression"
                          id={entry.id}
                          label={`Remove ${entry.email} from the suppression list`}
                          buttonLabel="Remove"
                          confirmLabel="Remove"
                        >
                          Remove <strong className="break-all">{entry.email}</strong> from the suppression list? The
                          address can receive email again.
                        </ConfirmDelete>
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
            noun={result.total === 1 ? "address" : "addresses"}
          />
        </CardContent>
      </Card>
    </div>
  );
}
