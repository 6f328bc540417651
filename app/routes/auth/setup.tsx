import { UserPlus } from "lucide-react";
import { Form, useNavigation } from "react-router";
import { createAccountFromLink } from "~/components/auth/account-link-form.server";
import { AuthCard } from "~/components/auth/auth-card";
import { Feedback } from "~/components/auth/feedback";
import { retryAfterHeaders } from "~/components/auth/headers";
import { NewPasswordFields } from "~/components/auth/password-fields";
import { Button } from "~/components/ui/button";
import { TextField } from "~/components/ui/field";
import { servicesContext } from "~/context";
import { pageTitle } from "~/lib/meta";
import { findUsableLink } from "../../../server/auth/invitations.ts";
import { INVALID_LINK_MESSAGE } from "../../../server/auth/link-messages.ts";
import type { Route } from "./+types/setup";

/**
 * The one-time owner-setup link the server logs when it starts with no administrator
 * and no ADMIN_* variables: whoever holds it creates the first admin account, once.
 */

export const meta: Route.MetaFunction = () => [
  { title: pageTitle("Set up the owner account") },
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = retryAfterHeaders;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db } = context.get(servicesContext);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const link = await findUsableLink(db, "owner-setup", token);
  return link ? { usable: true as const, token } : { usable: false as const };
}

export async function action({ request, context }: Route.ActionArgs) {
  return createAccountFromLink(context.get(servicesContext), request, "owner-setup");
}

export default function SetupPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  if (!loaderData.usable || actionData?.invalidLink) {
    return (
      <AuthCard title="Set up the owner account">
        <Feedback
          message={
            actionData?.message ?? { tone: "error", title: "Error signing up", description: INVALID_LINK_MESSAGE }
          }
          toastKey={actionData?.message ?? "invalid-link"}
        />
        <p className="text-sm text-fg-muted">
          While no administrator exists, each start of the server writes a new setup link to its log.
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Set up the owner account"
      description="No administrator exists yet. Create the first one: it can then invite others."
    >
      <Feedback message={actionData?.message} />
      <Form method="post" className="flex flex-col gap-4" data-testid="setup-form">
        <input type="hidden" name="token" value={loaderData.token} />
        <TextField
          label="Full name"
          name="name"
          autoComplete="name"
          maxLength={100}
          required
          defaultValue={actionData?.values?.name ?? ""}
          error={actionData?.fieldErrors?.name}
        />
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          required
          defaultValue={actionData?.values?.email ?? ""}
          error={actionData?.fieldErrors?.email}
        />
        <NewPasswordFields label="Password" errors={actionData?.fieldErrors} />
        <Button type="submit" className="w-full" disabled={submitting}>
          <UserPlus aria-hidden="true" className="size-4" />
          {submitting ? "Creating the account…" : "Create owner account"}
        </Button>
      </Form>
    </AuthCard>
  );
}
