import { ShieldCheck, UserCog } from "lucide-react";
import { DeleteItemButton } from "~/components/forms/delete-item-button";
import { SelectField } from "~/components/forms/fields";
import { FormDialog } from "~/components/forms/form-dialog";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { IconButton } from "~/components/ui/icon-button";
import { Table, TableActions, TableBody, TableCell, TableHead, TableRow } from "~/components/ui/table";
import type { UserSummary } from "../../../../server/auth/users.ts";
import { ROLE_LABELS, ROLE_OPTIONS, setRoleSchema } from "./schemas";

/** Every account with its role and two-factor state; the role is changed in a dialog, deletion confirmed. */
export function AccountsCard({ users, viewerId }: { users: UserSummary[]; viewerId: string }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Accounts</CardTitle>
      </CardHeader>
      <CardContent>
        <Table data-testid="users-table">
          <caption className="sr-only">Accounts</caption>
          <TableHead columns={["Name", "Email", "Role", "Two-factor", "Actions"]} />
          <TableBody>
            {users.map((user) => (
              <AccountRow key={user.id} user={user} isViewer={user.id === viewerId} />
            ))}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}

function AccountRow({ user, isViewer }: { user: UserSummary; isViewer: boolean }) {
  const label = user.name || user.email;
  return (
    <TableRow data-testid={`user-${user.email}`}>
      <TableCell label="Name" className="text-fg">
        {user.name || <span className="text-fg-muted">(no name)</span>}
        {isViewer && <span className="ml-2 text-xs text-fg-muted">(you)</span>}
      </TableCell>
      <TableCell label="Email" className="break-all text-fg-muted">
        {user.email}
      </TableCell>
      <TableCell label="Role">{user.role ? <Badge>{ROLE_LABELS[user.role]}</Badge> : "—"}</TableCell>
      <TableCell label="Two-factor">
        <Badge tone={user.twoFactorEnabled ? "success" : "neutral"}>
          {user.twoFactorEnabled && <ShieldCheck aria-hidden="true" className="size-3" />}
          {user.twoFactorEnabled ? "On" : "Off"}
        </Badge>
      </TableCell>
      <TableActions>
        <FormDialog
          title={`Change the role of ${label}`}
          description="Editors manage all content; administrators also manage site settings, the newsletter and users."
          trigger={<IconButton icon={UserCog} label={`Change the role of ${label}`} data-testid="change-role" />}
          schema={setRoleSchema}
          intent="set-role"
          formId={`set-role-${user.id}`}
          defaultValue={{ userId: user.id, role: user.role ?? "editor" }}
          submitLabel="Save role"
        >
          {(fields) => (
            <>
              <input type="hidden" name={fields.userId.name} value={user.id} />
              <SelectField meta={fields.role} label="Role" options={ROLE_OPTIONS} />
            </>
          )}
        </FormDialog>
        {!isViewer && (
          <DeleteItemButton
            name={label}
            data-testid="delete-user"
            description="The account, its sessions and passkeys are removed permanently. This action cannot be undone."
            confirmLabel="Delete permanently"
            intent="delete-user"
            fields={{ userId: user.id }}
          />
        )}
      </TableActions>
    </TableRow>
  );
}
