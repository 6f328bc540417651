import { KeyRound } from "lucide-react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { AuthCard, LINK_CLASSES } from "~/components/auth/auth-card";
import { Feedback } from "~/components/auth/feedback";
import { type FormResult, formPassword, formText } from "~/components/auth/form-result";
import { retryAfterHeaders } from "~/components/auth/headers";
import { signInPath } from "~/components/auth/notices";
import { NewPasswordFields, newPasswordProblems } from "~/components/auth/password-fields";
import { Button } from "~/components/ui/button";
import { servicesContext } from "~/context";
import { pageTitle } from "~/lib/meta";
import { readForm } from "~/lib/read-form.server";
import { callAuth, rateLimitMessage } from "../../../server/auth/handler-calls.ts";
import { passwordProblem } from "../../../server/auth/password-policy.ts";
import type { Route } from "./+types/reset-password";

/**
 * The target of the password-reset email (`/auth/reset-password?token=…`): choose a new
 * password. Better Auth checks the token (1 hour, once), sets the password and signs
 * out every session of the account.
 */

export const meta: Route.MetaFunction = () => [
  { title: pageTitle("Reset password") },
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = retryAfterHeaders;

const INVALID_LINK = "This password reset link is invalid or has expired. Please ask for a new one.";

type Field = "password" | "confirmPassword";
type Result = FormResult<Field> & { invalidLink?: boolean };

async function tokenIsUsable(services: { auth: { $context: Promise<unknown> } }, token: string): Promise<boolean> {
  if (!token || token.length > 200) return false;
  const context = (await services.auth.$context) as {
    internalAdapter: { findVerificationValue(identifier: string): Promise<{ expiresAt: Date | string } | null> };
  };
  const verification = await context.internalAdapter.findVerificationValue(`reset-password:${token}`);
  return verification !== null && new Date(verification.expiresAt).getTime() > Date.now();
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const url = new URL(request.url);
  const token = url.searchParams.get("token") ?? "";
  // ?error=INVALID_TOKEN: Better Auth's own link (/api/auth/reset-password/…) found the token dead.
  const usable = !url.searchParams.has("error") && (await tokenIsUsable(services, token));
  return { token: usable ? token : "", usable };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const form = await readForm(request);
  const token = formText(form, "token");
  const password = formPassword(form, "password");
  const fieldErrors = newPasswordProblems(password, formPassword(form, "confirmPassword"), passwordProblem);
  const firstProblem = fieldErrors.password ?? fieldErrors.confirmPassword;
  if (firstProblem) {
    return data<Result>(
      { message: { tone: "error", title: "Error", description: firstProblem }, fieldErrors },
      { status: 400 },
    );
  }

  const result = await callAuth(services, request, "/reset-password", { newPassword: password, token });
  if (result.ok) throw redirect(signInPath({ notice: "password-reset" }));
  if (result.status === 429) {
    const retry = result.retryAfterSeconds;
    return data<Result>(
      { message: { tone: "error", title: "Error", description: rateLimitMessage(result) } },
      { status: 429, headers: retry ? { "Retry-After": String(retry) } : undefined },
    );
  }
  if (result.body.code === "INVALID_TOKEN" || result.body.code === "USER_NOT_FOUND") {
    return data<Result>(
      { message: { tone: "error", title: "Error", description: INVALID_LINK }, invalidLink: true },
      { status: 400 },
    );
  }
  if (result.status === 400) {
    // The password rules (checked again by Better Auth's hook).
    const description = result.body.message || "This password cannot be used.";
    return data<Result>(
      { message: { tone: "error", title: "Error", description }, fieldErrors: { password: description } },
      { status: 400 },
    );
  }
  services.logger.error({ status: result.status, body: result.body }, "Password reset failed unexpectedly");
  return data<Result>(
    { message: { tone: "error", title: "Error", description: "Something went wrong. Please try again later." } },
    { status: 500 },
  );
}

export default function ResetPasswordPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const usable = loaderData.usable && !actionData?.invalidLink;
  return (
    <AuthCard
      title="Reset password"
      description={
        usable ? "Choose a new password for your account. Your other sessions will be signed out." : undefined
      }
      footer={
        <p>
          <Link to="/auth" className={LINK_CLASSES}>
            Back to sign in
          </Link>
        </p>
      }
    >
      {usable ? (
        <>
          <Feedback message={actionData?.message} />
          <Form method="post" className="flex flex-col gap-4" data-testid="reset-password-form">
            <input type="hidden" name="token" value={loaderData.token} />
            <NewPasswordFields errors={actionData?.fieldErrors} />
            <Button type="submit" className="w-full" disabled={submitting}>
              <KeyRound aria-hidden="true" className="size-4" />
              {submitting ? "Saving…" : "Set new password"}
            </Button>
          </Form>
        </>
      ) : (
        <>
          <Feedback
            message={actionData?.message ?? { tone: "error", title: "Error", description: INVALID_LINK }}
            toastKey={actionData?.message ?? "invalid-link"}
          />
          <Link to="/auth/forgot-password" className={LINK_CLASSES}>
            Ask for a new reset link
          </Link>
        </>
      )}
    </AuthCard>
  );
}
