import { ShieldOff, ShieldPlus, Trash2 } from "lucide-react";
import { ConfirmAction } from "~/components/forms/confirm-action";
import { InputField } from "~/components/forms/fields";
import { IntentForm, useIntentForm } from "~/components/forms/intent-form";
import { SubmitButton } from "~/components/forms/submit-button";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/empty-state";
import { Table, TableActions, TableBody, TableCell, TableHead, TableRow } from "~/components/ui/table";
import type { SuppressionPage } from "../../../server/newsletter/admin.ts";
import { addSuppressionSchema } from "./schemas";
import { formatDate, Pagination } from "./shared";

export interface SuppressionsTabProps {
  result: SuppressionPage;
  search: URLSearchParams;
}

/** Addresses that never receive email: added by hand here, or by bounces and complaints. */
export function SuppressionsTab({ result, search }: SuppressionsTabProps) {
  return (
    <>
      <AddSuppressionCard />
      <Card>
        <CardHeader>
          <CardTitle>Suppression List</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {result.entries.length === 0 ? (
            <EmptyState icon={ShieldOff} testId="suppressions-empty">
              No suppressed addresses.
            </EmptyState>
          ) : (
            <Table data-testid="suppressions-table">
              <caption className="sr-only">Suppressed addresses</caption>
              <TableHead columns={["Email", "Reason", "Added", "Actions"]} />
              <TableBody>
                {result.entries.map((entry) => (
                  <TableRow key={entry.id} data-testid={`suppression-${entry.email}`}>
                    <TableCell label="Email" className="break-all text-fg">
                      {entry.email}
                    </TableCell>
                    <TableCell label="Reason" className="break-words text-fg-muted">
                      {entry.reason || "—"}
                    </TableCell>
                    <TableCell label="Added" className="whitespace-nowrap text-fg-muted">
                      {formatDate(entry.added_at)}
                    </TableCell>
                    <TableActions>
                      <ConfirmAction
                        trigger={
                          <Button
                            variant="danger"
                            size="sm"
                            aria-label={`Remove ${entry.email} from the suppression list`}
                          >
                            <Trash2 aria-hidden="true" className="size-4" />
                            Remove
                          </Button>
                        }
                        title="Remove from the suppression list?"
                        description={
                          <>
                            <strong className="break-all text-fg">{entry.email}</strong> can receive email from the site
                            again. This action cannot be undone.
                          </>
                        }
                        confirmLabel="Remove"
                        pendingLabel="Removing..."
                        intent="remove-suppression"
                        fields={{ id: entry.id }}
                      />
                    </TableActions>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
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
    </>
  );
}

function AddSuppressionCard() {
  const add = useIntentForm({ intent: "add-suppression", schema: addSuppressionSchema });
  const { fields, busy } = add;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Add to suppression list</CardTitle>
        <CardDescription>An address on this list never receives any email from the site.</CardDescription>
      </CardHeader>
      <CardContent>
        <IntentForm state={add} className="flex flex-col gap-4" data-testid="add-suppression-form">
          <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
            <InputField meta={fields.email} label="Email" type="email" autoComplete="off" className="sm:flex-1" />
            <InputField meta={fields.reason} label="Reason (optional)" className="sm:flex-1" />
            <SubmitButton busy={busy} pendingLabel="Adding..." icon={ShieldPlus} className="sm:mt-6.5">
              Add
            </SubmitButton>
          </div>
        </IntentForm>
      </CardContent>
    </Card>
  );
}
