import { Ban, MailX } from "lucide-react";
import { ConfirmAction } from "~/components/forms/confirm-action";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/empty-state";
import { IconButton } from "~/components/ui/icon-button";
import { Table, TableActions, TableBody, TableCell, TableHead, TableRow } from "~/components/ui/table";
import type { PendingInvitation } from "../../../../server/auth/invitations.ts";
import { ROLE_LABELS } from "./schemas";

const DATE = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });

/** Invitations not yet used nor expired; revoking one stops its link at once. */
export function InvitationsCard({
  invitations,
  nameOf,
}: {
  invitations: PendingInvitation[];
  /** The inviter's name or email, by user id. */
  nameOf: ReadonlyMap<string, string>;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Pending invitations</CardTitle>
      </CardHeader>
      <CardContent>
        {invitations.length === 0 ? (
          <EmptyState icon={MailX} testId="invitations-empty">
            No pending invitations.
          </EmptyState>
        ) : (
          <Table data-testid="invitations-table">
            <caption className="sr-only">Pending invitations</caption>
            <TableHead columns={["Email", "Role", "Invited by", "Expires", "Actions"]} />
            <TableBody>
              {invitations.map((invitation) => (
                <TableRow key={invitation.id} data-testid={`invitation-${invitation.email}`}>
                  <TableCell label="Email" className="break-all text-fg">
                    {invitation.email}
                  </TableCell>
                  <TableCell label="Role" className="text-fg-muted">
                    {ROLE_LABELS[invitation.role]}
                  </TableCell>
                  <TableCell label="Invited by" className="text-fg-muted">
                    {(invitation.invitedBy && nameOf.get(invitation.invitedBy)) || "—"}
                  </TableCell>
                  <TableCell label="Expires" className="whitespace-nowrap text-fg-muted">
                    {DATE.format(new Date(invitation.expiresAt))}
                  </TableCell>
                  <TableActions>
                    <ConfirmAction
                      trigger={
                        <IconButton
                          icon={Ban}
                          label={`Revoke the invitation to ${invitation.email}`}
                          className="text-danger hover:text-danger"
                        />
                      }
                      title="Revoke this invitation?"
                      description={`The link sent to ${invitation.email} stops working. This action cannot be undone; you can send a new invitation.`}
                      confirmLabel="Revoke invitation"
                      pendingLabel="Revoking..."
                      intent="revoke-invitation"
                      fields={{ invitationId: invitation.id }}
                    />
                  </TableActions>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
