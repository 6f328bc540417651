import { Mail } from "lucide-react";
import { data, Form, Link, useNavigation } from "react-router";
import { AuthCard, LINK_CLASSES } from "~/components/auth/auth-card";
import { Feedback } from "~/components/auth/feedback";
import { EMAIL_PATTERN, type FormResult, formText } from "~/components/auth/form-result";
import { retryAfterHeaders } from "~/components/auth/headers";
import { Button } from "~/components/ui/button";
import { TextField } from "~/components/ui/field";
import { servicesContext } from "~/context";
import { pageTitle } from "~/lib/meta";
import { readForm } from "~/lib/read-form.server";
import { callAuth, rateLimitMessage } from "../../../server/auth/handler-calls.ts";
import { emailReport } from "../../../server/mail/reports.ts";
import type { Route } from "./+types/forgot-password";

/**
 * "Forgot password?": asks Better Auth (through its handler and rate limit) to email a
 * reset link. The answer is the same whether or not an account has that address.
 */

export const meta: Route.MetaFunction = () => [
  { title: pageTitle("Forgot password") },
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = retryAfterHeaders;

type Result = FormResult<"email"> & { sent?: boolean; advice?: string };

const LINK_LIFETIME = "The link expires in 1 hour and works once.";

/** The answer once a reset is requested: the email sent, or kept in the outbox without SMTP. */
const REQUESTED: { sent: Result; kept: Result } = {
  sent: {
    message: { tone: "success", title: "Check your email", description: "We've sent you a password reset link." },
    advice: `${LINK_LIFETIME} If no email arrives, check the address and your spam folder, then try again.`,
  },
  kept: {
    message: {
      tone: "success",
      title: "Reset link kept in the outbox",
      description:
        "No SMTP is configured, so no email was sent: for an address with an account, the reset link is in the server's log.",
    },
    advice: LINK_LIFETIME,
  },
};

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const form = await readForm(request);
  const email = formText(form, "email");
  const problem = !email
    ? "Email is required."
    : EMAIL_PATTERN.test(email)
      ? undefined
      : "Please enter a valid email address.";
  if (problem) {
    return data<Result>(
      {
        message: { tone: "error", title: "Error", description: problem },
        fieldErrors: { email: problem },
        values: { email },
      },
      { status: 400 },
    );
  }

  const result = await callAuth(services, request, "/request-password-reset", {
    email: email.toLowerCase(),
    redirectTo: "/auth/reset-password",
  });
  if (result.status === 429) {
    const retry = result.retryAfterSeconds;
    return data<Result>(
      { message: { tone: "error", title: "Error", description: rateLimitMessage(result) }, values: { email } },
      { status: 429, headers: retry ? { "Retry-After": String(retry) } : undefined },
    );
  }
  if (result.status >= 500) {
    services.logger.error({ status: result.status, body: result.body }, "Password reset request failed");
    return data<Result>(
      {
        message: { tone: "error", title: "Error", description: "Something went wrong. Please try again later." },
        values: { email },
      },
      { status: 500 },
    );
  }
  // Any other answer (an unknown address included) reads the same.
  return data<Result>({ ...emailReport(services.config.mail, REQUESTED), sent: true });
}

export default function ForgotPasswordPage({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const sent = actionData?.sent === true;
  return (
    <AuthCard
      title="Forgot password"
      description="Enter the email address of your account and we will send you a link to choose a new password."
      footer={
        <p>
          Remembered it?{" "}
          <Link to="/auth" className={LINK_CLASSES}>
            Back to sign in
          </Link>
        </p>
      }
    >
      <Feedback message={actionData?.message} />
      {sent ? (
        <p className="text-sm text-fg-muted">{actionData?.advice}</p>
      ) : (
        <Form method="post" className="flex flex-col gap-4" data-testid="forgot-password-form">
          <TextField
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            required
            defaultValue={actionData?.values?.email ?? ""}
            error={actionData?.fieldErrors?.email}
          />
          <Button type="submit" className="w-full" disabled={submitting}>
            <Mail aria-hidden="true" className="size-4" />
            {submitting ? "Sending…" : "Send reset link"}
          </Button>
        </Form>
      )}
    </AuthCard>
  );
}
