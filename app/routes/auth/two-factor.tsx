import { ShieldCheck } from "lucide-react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { AuthCard, LINK_CLASSES } from "~/components/auth/auth-card";
import { Feedback } from "~/components/auth/feedback";
import { type FormResult, formText } from "~/components/auth/form-result";
import { retryAfterHeaders } from "~/components/auth/headers";
import { signInPath } from "~/components/auth/notices";
import { afterSignInPath, keptRedirect } from "~/components/auth/redirect";
import { Button } from "~/components/ui/button";
import { TextField } from "~/components/ui/field";
import { servicesContext } from "~/context";
import { pageTitle } from "~/lib/meta";
import { getViewer } from "../../../server/auth/guards.ts";
import {
  callAuth,
  forwardedCookies,
  hasTwoFactorChallenge,
  rateLimitMessage,
} from "../../../server/auth/handler-calls.ts";
import type { Route } from "./+types/two-factor";

/**
 * The second step of signing in when two-factor is on: after a correct password,
 * Better Auth holds the sign-in in a short-lived cookie until a TOTP code (or a
 * one-time backup code) is verified, through its handler and its rate limit.
 */

export const meta: Route.MetaFunction = () => [
  { title: pageTitle("Two-factor authentication") },
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = retryAfterHeaders;

const ERROR_TITLE = "Error signing in";

type Method = "totp" | "backup";

function methodOf(value: string | null): Method {
  return value === "backup" ? "backup" : "totp";
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const url = new URL(request.url);
  const redirectTo = keptRedirect(url.searchParams.get("redirectTo"));
  if (await getViewer(services, request)) throw redirect(afterSignInPath(redirectTo));
  if (!hasTwoFactorChallenge(request)) throw redirect(signInPath({ redirectTo }));
  return { method: methodOf(url.searchParams.get("method")), redirectTo: redirectTo ?? "" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const form = await request.formData();
  const method = methodOf(formText(form, "method"));
  const typed = formText(form, "code");
  const code = method === "totp" ? typed.replace(/[\s-]/g, "") : typed;
  const destination = afterSignInPath(formText(form, "redirectTo"));

  if (!code) {
    const description = method === "totp" ? "Please enter the 6-digit code." : "Please enter a backup code.";
    return data<FormResult<"code">>(
      { message: { tone: "error", title: ERROR_TITLE, description }, fieldErrors: { code: description } },
      { status: 400 },
    );
  }

  const path = method === "totp" ? "/two-factor/verify-totp" : "/two-factor/verify-backup-code";
  const result = await callAuth(services, request, path, { code });
  const headers = forwardedCookies(result);
  if (result.ok) throw redirect(destination, { headers });

  if (result.status === 429) {
    const retry = result.retryAfterSeconds;
    return data<FormResult<"code">>(
      { message: { tone: "error", title: ERROR_TITLE, description: rateLimitMessage(result) } },
      { status: 429, headers: forwardedCookies(result, retry ? { "Retry-After": String(retry) } : undefined) },
    );
  }
  const expired =
    result.body.code === "INVALID_TWO_FACTOR_COOKIE" || result.body.code === "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE";
  if (expired) {
    return data<FormResult<"code"> & { restart: true }>(
      {
        message: {
          tone: "error",
          title: ERROR_TITLE,
          description: "This sign-in attempt has expired or was tried too many times. Please sign in again.",
        },
        restart: true,
      },
      { status: 401, headers },
    );
  }
  const description = method === "totp" ? "The code is not valid. Please try again." : "The backup code is not valid.";
  return data<FormResult<"code">>(
    { message: { tone: "error", title: ERROR_TITLE, description }, fieldErrors: { code: description } },
    { status: result.status >= 500 ? 500 : 401, headers },
  );
}

export default function TwoFactorPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const { method, redirectTo } = loaderData;
  const other = new URLSearchParams({ method: method === "totp" ? "backup" : "totp" });
  if (redirectTo) other.set("redirectTo", redirectTo);
  const restart = actionData && "restart" in actionData;
  return (
    <AuthCard
      title="Two-factor authentication"
      description={
        method === "totp"
          ? "Enter the 6-digit code from your authenticator app."
          : "Enter one of the backup codes you saved when you turned on two-factor authentication. Each works once."
      }
      footer={
        <p>
          <Link to={signInPath({ redirectTo: redirectTo || undefined })} className={LINK_CLASSES}>
            Start again
          </Link>
        </p>
      }
    >
      <Feedback message={actionData?.message} />
      {restart ? (
        <Link to={signInPath({ redirectTo: redirectTo || undefined })} className={LINK_CLASSES}>
          Sign in again
        </Link>
      ) : (
        <Form method="post" className="flex flex-col gap-4" data-testid="two-factor-form">
          <input type="hidden" name="method" value={method} />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          {method === "totp" ? (
            <TextField
              key="totp"
              label="Authentication code"
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9 ]{6,7}"
              maxLength={7}
              required
              autoFocus
              error={actionData?.fieldErrors?.code}
            />
          ) : (
            <TextField
              key="backup"
              label="Backup code"
              name="code"
              autoComplete="off"
              spellCheck={false}
              required
              autoFocus
              error={actionData?.fieldErrors?.code}
            />
          )}
          <Button type="submit" className="w-full" disabled={submitting}>
            <ShieldCheck aria-hidden="true" className="size-4" />
            {submitting ? "Verifying…" : "Verify"}
          </Button>
          <Link to={`/auth/two-factor?${other}`} className={`text-sm ${LINK_CLASSES}`}>
            {method === "totp" ? "Use a backup code instead" : "Use your authenticator app instead"}
          </Link>
        </Form>
      )}
    </AuthCard>
  );
}
