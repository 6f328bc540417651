import { redirect } from "react-router";
import { AccountsCard } from "~/components/admin/users/accounts-card";
import { InvitationsCard } from "~/components/admin/users/invitations-card";
import type { InvitationDetails } from "~/components/admin/users/invite-card";
import { InviteCard } from "~/components/admin/users/invite-card";
import {
  deleteUserSchema,
  inviteSchema,
  revokeInvitationSchema,
  setRoleSchema,
} from "~/components/admin/users/schemas";
import { showToast } from "~/components/auth/feedback";
import { withDetails } from "~/components/forms/answer-details.server";
import { toastActionAnswer } from "~/components/forms/toast-action-answer";
import { PageTitle } from "~/components/site/page-title";
import { servicesContext } from "~/context";
import { formIntent, runFormAction } from "~/lib/form-action.server";
import { requireRole } from "~/lib/guards.server";
import { adminPageMeta } from "~/lib/meta";
import { readForm } from "~/lib/read-form.server";
import { useAuth } from "~/lib/use-auth";
import { createInvitation, listPendingInvitations, revokeInvitation } from "../../../server/auth/invitations.ts";
import { deleteUser, listUsers, setRole } from "../../../server/auth/users.ts";
import { emailReport } from "../../../server/mail/reports.ts";
import type { Route } from "./+types/users";

/**
 * /admin/users (admins only): the accounts with their role and two-factor state,
 * invitations by email, role changes and deletion. Every action checks the admin
 * role itself too, whatever the layout's guard did; the services keep the last
 * administrator.
 */

export const meta: Route.MetaFunction = () => adminPageMeta("Users");

/** Where an admin who made themselves an editor is sent: this page is for administrators only. */
const AFTER_SELF_DEMOTION = "/admin";

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  await requireRole(services, request, "admin");
  const [users, invitations] = await Promise.all([listUsers(services), listPendingInvitations(services.db)]);
  return { users, invitations };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const viewer = await requireRole(services, request, "admin");
  const actorId = viewer.user.id;
  const details: InvitationDetails = {};
  let demotedSelf = false;
  const answer = await runFormAction(
    await readForm(request),
    {
      invite: formIntent({
        schema: inviteSchema,
        failure: "Failed to send invitation",
        async run({ email, role }) {
          const { invitation, url } = await createInvitation(services, { email, role, invitedBy: viewer.user });
          services.mail.wake();
          details.invitationUrl = url;
          return emailReport(services.config.mail, {
            sent: {
              tone: "success",
              title: "Invitation sent",
              description: `An invitation was sent to ${invitation.email}. The link expires in 7 days.`,
            },
            kept: {
              tone: "success",
              title: "Invitation kept in the outbox",
              description: `No SMTP is configured, so no email went to ${invitation.email}: share the link below with them. It expires in 7 days.`,
            },
          });
        },
      }),
      "revoke-invitation": formIntent({
        schema: revokeInvitationSchema,
        failure: "Failed to revoke invitation",
        async run({ invitationId }) {
          const invitation = await revokeInvitation(services.db, { id: invitationId, actorId });
          return {
            tone: "success",
            title: "Invitation revoked",
            description: `The invitation to ${invitation.email} no longer works.`,
          };
        },
      }),
      "set-role": formIntent({
        schema: setRoleSchema,
        failure: "Failed to update role",
        async run({ userId, role }) {
          const user = await setRole(services, { userId, role, actorId });
          demotedSelf = user.id === actorId && user.role !== "admin";
          return {
            tone: "success",
            title: "Role updated",
            description: `${user.name || user.email} is now ${user.role === "admin" ? "an administrator" : "an editor"}.`,
          };
        },
      }),
      "delete-user": formIntent({
        schema: deleteUserSchema,
        failure: "Failed to delete user",
        async run({ userId }) {
          const user = await deleteUser(services, { userId, actorId });
          return {
            tone: "success",
            title: "User deleted",
            description: `The account of ${user.name || user.email} has been deleted.`,
          };
        },
      }),
    },
    services.logger,
  );
  // An admin who made themselves an editor can no longer see this page.
  if (demotedSelf) throw redirect(AFTER_SELF_DEMOTION);
  return withDetails(answer, details);
}

export async function clientAction(args: Route.ClientActionArgs) {
  try {
    return await toastActionAnswer(args);
  } catch (thrown) {
    // The server answers a self-demotion with that redirect, which carries no toast: it is told here.
    if (thrown instanceof Response && thrown.headers.get("Location") === AFTER_SELF_DEMOTION) {
      showToast({ tone: "success", title: "Role updated", description: "You are now an editor." });
    }
    throw thrown;
  }
}

export default function AdminUsersPage({ loaderData }: Route.ComponentProps) {
  const { users, invitations } = loaderData;
  const { user: viewer } = useAuth();
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
      <InviteCard />
      <AccountsCard users={users} viewerId={viewer.id} />
      <InvitationsCard invitations={invitations} nameOf={nameOf} />
    </div>
  );
}
