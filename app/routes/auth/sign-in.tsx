import { LogIn } from "lucide-react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { AuthCard, LINK_CLASSES } from "~/components/auth/auth-card";
import { Feedback } from "~/components/auth/feedback";
import { EMAIL_PATTERN, type FormResult, formPassword, formText } from "~/components/auth/form-result";
import { retryAfterHeaders } from "~/components/auth/headers";
import { noticeFrom } from "~/components/auth/notices";
import { PasskeySignIn } from "~/components/auth/passkey-sign-in";
import { afterSignInPath, keptRedirect } from "~/components/auth/redirect";
import { Button } from "~/components/ui/button";
import { TextField } from "~/components/ui/field";
import { servicesContext } from "~/context";
import { pageTitle } from "~/lib/meta";
import { readForm } from "~/lib/read-form.server";
import { getViewer } from "../../../server/auth/guards.ts";
import { callAuth, forwardedCookies, rateLimitMessage } from "../../../server/auth/handler-calls.ts";
import type { Route } from "./+types/sign-in";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("Sign in") }, { name: "robots", content: "noindex" }];

export const headers: Route.HeadersFunction = retryAfterHeaders;

const ERROR_TITLE = "Error signing in";
/** The same text for an unknown email and a wrong password, so accounts cannot be discovered. */
const INVALID_CREDENTIALS = "Invalid email or password.";

type Field = "email" | "password";

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const url = new URL(request.url);
  const redirectTo = url.searchParams.get("redirectTo");
  if (await getViewer(services, request)) throw redirect(afterSignInPath(redirectTo));
  return { redirectTo: keptRedirect(redirectTo) ?? "", notice: noticeFrom(url) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const form = await readForm(request);
  const email = formText(form, "email");
  const password = formPassword(form, "password");
  const destination = afterSignInPath(formText(form, "redirectTo"));

  const fieldErrors: FormResult<Field>["fieldErrors"] = {};
  if (!email) fieldErrors.email = "Email is required.";
  else if (!EMAIL_PATTERN.test(email)) fieldErrors.email = "Please enter a valid email address.";
  if (!password) fieldErrors.password = "Password is required.";
  const firstProblem = fieldErrors.email ?? fieldErrors.password;
  if (firstProblem) {
    return data<FormResult<Field>>(
      { message: { tone: "error", title: ERROR_TITLE, description: firstProblem }, fieldErrors, values: { email } },
      { status: 400 },
    );
  }

  const result = await callAuth(services, request, "/sign-in/email", { email, password, rememberMe: true });
  if (result.ok) {
    const headers = forwardedCookies(result);
    if (result.body.twoFactorRedirect) {
      const kept = keptRedirect(destination);
      throw redirect(`/auth/two-factor${kept ? `?${new URLSearchParams({ redirectTo: kept })}` : ""}`, { headers });
    }
    throw redirect(destination, { headers });
  }

  if (result.status === 429) {
    const retry = result.retryAfterSeconds;
    return data<FormResult<Field>>(
      { message: { tone: "error", title: ERROR_TITLE, description: rateLimitMessage(result) }, values: { email } },
      { status: 429, headers: forwardedCookies(result, retry ? { "Retry-After": String(retry) } : undefined) },
    );
  }
  if (result.status === 401 || result.status === 400) {
    return data<FormResult<Field>>(
      { message: { tone: "error", title: ERROR_TITLE, description: INVALID_CREDENTIALS }, values: { email } },
      { status: 401, headers: forwardedCookies(result) },
    );
  }
  services.logger.error({ status: result.status, body: result.body }, "Sign-in failed unexpectedly");
  return data<FormResult<Field>>(
    {
      message: { tone: "error", title: ERROR_TITLE, description: "Something went wrong. Please try again later." },
      values: { email },
    },
    { status: 500 },
  );
}

export default function SignInPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const { redirectTo, notice } = loaderData;
  const forgotPassword = "/auth/forgot-password";
  return (
    <AuthCard
      title="Sign in"
      description="Sign in to manage the site's content."
      footer={
        <p>
          Accounts are created by invitation.{" "}
          <Link to="/" className={LINK_CLASSES}>
            Back to the site
          </Link>
        </p>
      }
    >
      {/* A notice from the redirect that led here (Signed out, …) gives way to the answer of a sign-in attempt. */}
      <Feedback message={actionData ? null : notice} toastKey={notice?.title} />
      <Feedback message={actionData?.message} />
      <Form method="post" className="flex flex-col gap-4" data-testid="sign-in-form">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          required
          defaultValue={actionData?.values?.email ?? ""}
          error={actionData?.fieldErrors?.email}
        />
        <div className="flex flex-col gap-1.5">
          <TextField
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            error={actionData?.fieldErrors?.password}
          />
          <Link to={forgotPassword} className={`self-end text-sm ${LINK_CLASSES}`}>
            Forgot password?
          </Link>
        </div>
        <Button type="submit" className="w-full" disabled={submitting}>
          <LogIn aria-hidden="true" className="size-4" />
          {submitting ? "Signing in…" : "Sign in"}
        </Button>
      </Form>
      <PasskeySignIn redirectTo={redirectTo || "/admin"} />
    </AuthCard>
  );
}
