import { LogOut } from "lucide-react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { AuthCard, LINK_CLASSES } from "~/components/auth/auth-card";
import { Feedback } from "~/components/auth/feedback";
import type { FormResult } from "~/components/auth/form-result";
import { signInPath } from "~/components/auth/notices";
import { Button } from "~/components/ui/button";
import { servicesContext } from "~/context";
import { pageTitle } from "~/lib/meta";
import { getViewer } from "../../../server/auth/guards.ts";
import { callAuth, forwardedCookies } from "../../../server/auth/handler-calls.ts";
import type { Route } from "./+types/sign-out";

/**
 * POST /auth/sign-out (the admin header's Sign Out is a plain form posting here): ends
 * the session in the database through Better Auth's handler, which also expires its
 * cookies, then shows the sign-in page with "Signed out". A GET offers the same button.
 */

export const meta: Route.MetaFunction = () => [
  { title: pageTitle("Sign out") },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await getViewer(context.get(servicesContext), request);
  if (!viewer) throw redirect("/auth");
  return { email: viewer.user.email };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const result = await callAuth(services, request, "/sign-out", {});
  if (result.ok) throw redirect(signInPath({ notice: "signed-out" }), { headers: forwardedCookies(result) });
  services.logger.error({ status: result.status, body: result.body }, "Sign-out failed");
  return data<FormResult>(
    {
      message: {
        tone: "error",
        title: "Error signing out",
        description: result.body.message || "Something went wrong. Please try again.",
      },
    },
    { status: result.status >= 400 ? result.status : 500, headers: forwardedCookies(result) },
  );
}

export default function SignOutPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <AuthCard
      title="Sign out"
      description={`You are signed in as ${loaderData.email}.`}
      footer={
        <p>
          <Link to="/admin" className={LINK_CLASSES}>
            Back to the dashboard
          </Link>
        </p>
      }
    >
      <Feedback message={actionData?.message} />
      <Form method="post" reloadDocument>
        <Button type="submit" className="w-full" disabled={submitting}>
          <LogOut aria-hidden="true" className="size-4" />
          Sign out
        </Button>
      </Form>
    </AuthCard>
  );
}
