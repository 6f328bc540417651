import { UserPlus } from "lucide-react";
import { Form, Link, useNavigation } from "react-router";
import { createAccountFromLink } from "~/components/auth/account-link-form.server";
import { AuthCard, LINK_CLASSES } from "~/components/auth/auth-card";
import { Feedback } from "~/components/auth/feedback";
import { retryAfterHeaders } from "~/components/auth/headers";
import { NewPasswordFields } from "~/components/auth/password-fields";
import { Button } from "~/components/ui/button";
import { TextField } from "~/components/ui/field";
import { servicesContext } from "~/context";
import { pageTitle } from "~/lib/meta";
import { findUsableLink } from "../../../server/auth/invitations.ts";
import { INVALID_LINK_MESSAGE } from "../../../server/auth/link-messages.ts";
import type { Route } from "./+types/invite";

/**
 * The target of an invitation email (`/auth/invite?token=…`): the invited person
 * chooses their name and password; the email address and role come from the
 * invitation. The link expires after 7 days and works once.
 */

export const meta: Route.MetaFunction = () => [
  { title: pageTitle("Create your account") },
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = retryAfterHeaders;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db } = context.get(servicesContext);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const invitation = await findUsableLink(db, "invitation", token);
  return invitation
    ? { usable: true as const, token, email: invitation.email, role: invitation.role }
    : { usable: false as const };
}

export async function action({ request, context }: Route.ActionArgs) {
  return createAccountFromLink(context.get(servicesContext), request, "invitation");
}

export default function InvitePage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const footer = (
    <p>
      Already have an account?{" "}
      <Link to="/auth" className={LINK_CLASSES}>
        Sign in
      </Link>
    </p>
  );
  if (!loaderData.usable || actionData?.invalidLink) {
    return (
      <AuthCard title="Create your account" footer={footer}>
        <Feedback
          message={
            actionData?.message ?? { tone: "error", title: "Error signing up", description: INVALID_LINK_MESSAGE }
          }
          toastKey={actionData?.message ?? "invalid-link"}
        />
        <p className="text-sm text-fg-muted">Ask the administrator who invited you for a new invitation.</p>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Create your account"
      description={`You were invited as ${loaderData.role === "admin" ? "an administrator" : "an editor"}. Choose your name and a password.`}
      footer={footer}
    >
      <Feedback message={actionData?.message} />
      <Form method="post" className="flex flex-col gap-4" data-testid="invite-form">
        <input type="hidden" name="token" value={loaderData.token} />
        <TextField label="Email" name="email" type="email" value={loaderData.email} readOnly autoComplete="username" />
        <TextField
          label="Full name"
          name="name"
          autoComplete="name"
          maxLength={100}
          required
          defaultValue={actionData?.values?.name ?? ""}
          error={actionData?.fieldErrors?.name}
        />
        <NewPasswordFields label="Password" errors={actionData?.fieldErrors} />
        <Button type="submit" className="w-full" disabled={submitting}>
          <UserPlus aria-hidden="true" className="size-4" />
          {submitting ? "Creating your account…" : "Create account"}
        </Button>
      </Form>
    </AuthCard>
  );
}
