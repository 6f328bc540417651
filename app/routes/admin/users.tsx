import { Send, Trash2, UserCog } from "lucide-react";
import { data, Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { Feedback, type FeedbackMessage } from "~/components/auth/feedback";
import { PageTitle } from "~/components/site/page-title";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { TextField } from "~/components/ui/field";
import { Select, SelectField } from "~/components/ui/select";
import { TableHead } from "~/components/ui/table-head";
import { servicesContext } from "~/context";
import { adminPageMeta } from "~/lib/meta";
import { useAuth } from "~/lib/use-auth";
import { requireRole } from "../../../server/auth/guards.ts";
import { createInvitation, listPendingInvitations, revokeInvitation } from "../../../server/auth/invitations.ts";
import { AccountError, deleteUser, listUsers, setRole } from "../../../server/auth/users.ts";
import type { Route } from "./+types/users";

/**
 * /admin/users (admins only): the accounts with their role and two-factor state,
 * invitations by email, role changes and deletion. Every action checks the admin
 * role itself too, whatever the layout's guard did.
 */

export const meta: Route.MetaFunction = () => adminPageMeta("Users");

const ROLE_LABELS = { admin: "Administrator", editor: "Editor" } as const;
const ROLE_OPTIONS = [
  { value: "editor", label: ROLE_LABELS.editor },
  { value: "admin", label: ROLE_LABELS.admin },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  await requireRole(services, request, "admin");
  const [users, invitations] = await Promise.all([listUsers(services), listPendingInvitations(services.db)]);
  return { users, invitations };
}

const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("invite"), email: z.string().max(320), role: z.string().max(20) }),
  z.object({ intent: z.literal("revoke-invitation"), invitationId: z.string().min(1).max(200) }),
  z.object({ intent: z.literal("set-role"), userId: z.string().min(1).max(200), role: z.string().max(20) }),
  z.object({ intent: z.literal("delete-user"), userId: z.string().min(1).max(200) }),
]);

export interface UsersActionResult {
  message: FeedbackMessage;
  /** After an invitation: its link, shown once, for when the email does not arrive. */
  invitationUrl?: string;
  fieldErrors?: { email?: string; role?: string };
  values?: { email?: string; role?: string };
}

const FAILURE_TITLES = {
  invite: "Failed to send invitation",
  "revoke-invitation": "Failed to revoke invitation",
  "set-role": "Failed to update role",
  "delete-user": "Failed to delete user",
} as const;

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const viewer = await requireRole(services, request, "admin");
  const parsed = actionSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) {
    return data<UsersActionResult>(
      { message: { tone: "error", title: "Error", description: "The form was not understood. Please try again." } },
      { status: 400 },
    );
  }
  const input = parsed.data;
  try {
    switch (input.intent) {
      case "invite": {
        const { invitation, url } = await createInvitation(services, {
          email: input.email,
          role: input.role,
          invitedBy: viewer.user,
        });
        services.mail.wake();
        return data<UsersActionResult>({
          message: {
            tone: "success",
            title: "Invitation sent",
            description: `An invitation was sent to ${invitation.email}. The link expires in 7 days.`,
          },
          invitationUrl: url,
        });
      }
      case "revoke-invitation": {
        const invitation = await revokeInvitation(services.db, { id: input.invitationId, actorId: viewer.user.id });
        return data<UsersActionResult>({
          message: {
            tone: "success",
            title: "Invitation revoked",
            description: `The invitation to ${invitation.email} no longer works.`,
          },
        });
      }
      case "set-role": {
        const user = await setRole(services, { userId: input.userId, role: input.role, actorId: viewer.user.id });
        // Admins who make themselves editors can no longer see this page.
        if (user.id === viewer.user.id && user.role !== "admin") throw redirect("/admin");
        return data<UsersActionResult>({
          message: {
            tone: "success",
            title: "Role updated",
            description: `${user.name || user.email} is now ${user.role === "admin" ? "an administrator" : "an editor"}.`,
          },
        });
      }
      case "delete-user": {
        const user = await deleteUser(services, { userId: input.userId, actorId: viewer.user.id });
        return data<UsersActionResult>({
          message: {
            tone: "success",
            title: "User deleted",
            description: `The account of ${user.name || user.email} has been deleted.`,
          },
        });
      }
    }
  } catch (error) {
    if (!(error instanceof AccountError)) throw error;
    const fieldErrors =
      input.intent === "invite" && (error.field === "email" || error.field === "role")
        ? { [error.field]: error.message }
        : undefined;
    return data<UsersActionResult>(
      {
        message: { tone: "error", title: FAILURE_TITLES[input.intent], description: error.message },
        fieldErrors,
        values: input.intent === "invite" ? { email: input.email, role: input.role } : undefined,
      },
      { status: error.code === "not-found" ? 404 : error.code === "email-taken" ? 409 : 400 },
    );
  }
}

const DATE = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });

function formatDate(iso: string): string {
  return DATE.format(new Date(iso));
}

export default function AdminUsersPage({ loaderData, actionData }: Route.ComponentProps) {
  const { users, invitations } = loaderData;
  const { user: me } = useAuth();
  const navigation = useNavigation();
  const busyIntent = navigation.state !== "idle" ? navigation.formData?.get("intent") : null;
  const nameOf = new Map(users.map((user) => [user.id, user.name || user.email]));

  return (
    <div className="flex flex-col gap-8">
      <div>
        <PageTitle>Users</PageTitle>
        <p className="mt-2 text-fg-muted">
          People who can sign in to the admin area. Editors manage all content; administrators also manage site
          settings, newsletter subscribers and users.
        </p>
      </div>

      <Feedback message={actionData?.message} />

      <Card>
        <CardHeader>
          <CardTitle>Invite a user</CardTitle>
          <CardDescription>
            The person receives an email with a link to choose their name and password. The link expires in 7 days and
            works once.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <Form
            method="post"
            key={actionData?.invitationUrl ?? "invite"}
            className="flex flex-col gap-4 sm:flex-row sm:items-start"
            data-testid="invite-form"
          >
            <input type="hidden" name="intent" value="invite" />
            <TextField
              label="Email"
              name="email"
              type="email"
              autoComplete="off"
              required
              className="sm:flex-1"
              defaultValue={actionData?.values?.email ?? ""}
              error={actionData?.fieldErrors?.email}
            />
            <SelectField
              label="Role"
              name="role"
              className="sm:w-44"
              defaultValue={actionData?.values?.role ?? "editor"}
              options={ROLE_OPTIONS}
            />
            <Button type="submit" className="sm:mt-7" disabled={busyIntent === "invite"}>
              <Send aria-hidden="true" className="size-4" />
              {busyIntent === "invite" ? "Sending…" : "Send invitation"}
            </Button>
          </Form>
          {actionData?.invitationUrl && (
            <div className="rounded-md border border-line p-3 text-sm" data-testid="invitation-link">
              <p className="text-fg-muted">If the email does not arrive, you can share this link with them directly:</p>
              <p className="mt-1 font-mono break-all text-fg">{actionData.invitationUrl}</p>
            </div>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Accounts</CardTitle>
        </CardHeader>
        <CardContent className="overflow-x-auto">
          <table className="w-full text-left text-sm" data-testid="users-table">
            <TableHead columns={["Name", "Email", "Role", "Two-factor", "Actions"]} />
            <tbody>
              {users.map((user) => {
                const isMe = user.id === me.id;
                const label = user.name || user.email;
                return (
                  <tr key={user.id} className="border-b border-line last:border-0" data-testid={`user-${user.email}`}>
                    <td className="py-3 pr-4 text-fg">
                      {user.name || <span className="text-fg-muted">(no name)</span>}
                      {isMe && <span className="ml-2 text-xs text-fg-muted">(you)</span>}
                    </td>
                    <td className="py-3 pr-4 text-fg-muted">{user.email}</td>
                    <td className="py-3 pr-4">
                      <Form method="post" className="flex items-center gap-2">
                        <input type="hidden" name="intent" value="set-role" />
                        <input type="hidden" name="userId" value={user.id} />
                        <label htmlFor={`role-${user.id}`} className="sr-only">
                          Role of {label}
                        </label>
                        <Select
                          id={`role-${user.id}`}
                          name="role"
                          defaultValue={user.role ?? "editor"}
                          className="w-40 py-1"
                          key={`${user.id}-${user.role}`}
                          options={ROLE_OPTIONS}
                        />
                        <Button type="submit" variant="secondary" size="sm" aria-label={`Save the role of ${label}`}>
                          <UserCog aria-hidden="true" className="size-4" />
                          Save
                        </Button>
                      </Form>
                    </td>
                    <td className="py-3 pr-4">
                      <Badge tone={user.twoFactorEnabled ? "success" : "neutral"}>
                        {user.twoFactorEnabled ? "On" : "Off"}
                      </Badge>
                    </td>
                    <td className="py-3 text-right">{!isMe && <DeleteUser userId={user.id} label={label} />}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Pending invitations</CardTitle>
        </CardHeader>
        <CardContent className="overflow-x-auto">
          {invitations.length === 0 ? (
            <p className="text-sm text-fg-muted">No pending invitations.</p>
          ) : (
            <table className="w-full text-left text-sm" data-testid="invitations-table">
              <TableHead columns={["Email", "Role", "Invited by", "Expires", "Actions"]} />
              <tbody>
                {invitations.map((invitation) => (
                  <tr key={invitation.id} className="border-b border-line last:border-0">
                    <td className="py-3 pr-4 text-fg">{invitation.email}</td>
                    <td className="py-3 pr-4 text-fg-muted">{ROLE_LABELS[invitation.role]}</td>
                    <td className="py-3 pr-4 text-fg-muted">
                      {(invitation.invitedBy && nameOf.get(invitation.invitedBy)) || "—"}
                    </td>
                    <td className="py-3 pr-4 text-fg-muted">{formatDate(invitation.expiresAt)}</td>
                    <td className="py-3 text-right">
                      <Form method="post">
                        <input type="hidden" name="intent" value="revoke-invitation" />
                        <input type="hidden" name="invitationId" value={invitation.id} />
                        <Button
                          type="submit"
                          variant="secondary"
                          size="sm"
                          aria-label={`Revoke the invitation to ${invitation.email}`}
                        >
                          Revoke
                        </Button>
                      </Form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

/** Delete, behind a confirmation that says it cannot be undone (a <details>: works without JavaScript). */
function DeleteUser({ userId, label }: { userId: string; label: string }) {
  return (
    <details className="inline-block text-left">
      <summary
        className={`${buttonVariants({ variant: "danger", size: "sm" })} list-none [&::-webkit-details-marker]:hidden`}
        aria-label={`Delete ${label}`}
      >
        <Trash2 aria-hidden="true" className="size-4" />
        Delete
      </summary>
      {/* In the flow, not floating: the table scrolls sideways and would clip a popover. */}
      <div className="mt-2 w-64 rounded-lg border border-line bg-surface p-3 text-left">
        <p className="text-sm text-fg">
          Delete the account of <strong>{label}</strong>? This action is irreversible: the account, its sessions and
          passkeys are removed permanently.
        </p>
        <Form method="post" className="mt-3">
          <input type="hidden" name="intent" value="delete-user" />
          <input type="hidden" name="userId" value={userId} />
          <Button type="submit" variant="danger" size="sm" className="w-full">
            <Trash2 aria-hidden="true" className="size-4" />
            Delete permanently
          </Button>
        </Form>
      </div>
    </details>
  );
}
