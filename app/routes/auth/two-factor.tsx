import { MessageSquareText, ShieldCheck } from "lucide-react";
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
import { readForm } from "~/lib/read-form.server";
import { getViewer } from "../../../server/auth/guards.ts";
import {
  type AuthCallResult,
  callAuth,
  forwardedCookies,
  hasTwoFactorChallenge,
  rateLimitMessage,
} from "../../../server/auth/handler-calls.ts";
import { PHONE_CODE_MINUTES } from "../../../server/auth/phone-code-period.ts";
import type { SignInFactors } from "../../../server/auth/phone-factor-endpoints.ts";
import type { Route } from "./+types/two-factor";

/**
 * The second step of signing in when two-factor is on: after a correct password,
 * Better Auth holds the sign-in in a short-lived cookie until a second factor is
 * verified, through its handler and its rate limit: a code from the authenticator
 * app, a one-time backup code, or a code texted to the account's confirmed phone
 * number. Each is a plain form: the page works without JavaScript.
 */

export const meta: Route.MetaFunction = () => [
  { title: pageTitle("Two-factor authentication") },
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = retryAfterHeaders;

const ERROR_TITLE = "Error signing in";

type Method = "totp" | "backup" | "sms";

/** The method asked for, if this account has it; else its first one. */
function methodOf(value: string | null, factors: SignInFactors): Method {
  const available: Method[] = [
    ...(factors.authenticator ? (["totp"] as const) : []),
    ...(factors.phone ? (["sms"] as const) : []),
    ...(factors.backupCodes ? (["backup"] as const) : []),
  ];
  return available.find((method) => method === value) ?? available[0] ?? "totp";
}

function twoFactorPath(method: Method, redirectTo: string | undefined, sent = false): string {
  const query = new URLSearchParams({ method });
  if (sent) query.set("sent", "1");
  if (redirectTo) query.set("redirectTo", redirectTo);
  return `/auth/two-factor?${query}`;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const url = new URL(request.url);
  const redirectTo = keptRedirect(url.searchParams.get("redirectTo"));
  if (await getViewer(services, request)) throw redirect(afterSignInPath(redirectTo));
  // The factors of the account whose sign-in waits for its second step (none: no sign-in waits).
  const factors = hasTwoFactorChallenge(request)
    ? ((await services.auth.api.signInFactors({ headers: request.headers }).catch(() => null)) as SignInFactors | null)
    : null;
  if (!factors) throw redirect(signInPath({ redirectTo }));
  const method = methodOf(url.searchParams.get("method"), factors);
  return {
    method,
    factors,
    sent: method === "sms" && url.searchParams.get("sent") === "1",
    redirectTo: redirectTo ?? "",
  };
}

/** A 429 with the wait, as the page shows it. */
function rateLimited(result: AuthCallResult) {
  const retry = result.retryAfterSeconds;
  return data<FormResult<"code">>(
    { message: { tone: "error", title: ERROR_TITLE, description: rateLimitMessage(result) } },
    { status: 429, headers: forwardedCookies(result, retry ? { "Retry-After": String(retry) } : undefined) },
  );
}

/**
 * A sign-in that waited too long for its second step, or whose codes were tried too
 * often: it starts again at the first step, which says why (a redirect, so that it
 * reads the same without JavaScript).
 */
function signInExpired(redirectTo: string | undefined, headers: Headers): never {
  throw redirect(signInPath({ redirectTo, notice: "sign-in-expired" }), { headers });
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const form = await readForm(request);
  const method = (["totp", "backup", "sms"] as const).find((name) => name === formText(form, "method")) ?? "totp";
  const redirectTo = keptRedirect(formText(form, "redirectTo"));

  if (formText(form, "intent") === "send-code") {
    const result = await callAuth(services, request, "/two-factor/send-otp", {});
    if (result.ok) throw redirect(twoFactorPath("sms", redirectTo, true), { headers: forwardedCookies(result) });
    if (result.status === 429) return rateLimited(result);
    if (result.body.code === "INVALID_TWO_FACTOR_COOKIE") signInExpired(redirectTo, forwardedCookies(result));
    return data<FormResult<"code">>(
      {
        message: {
          tone: "error",
          title: ERROR_TITLE,
          description: result.body.message || "No code could be sent. Please try again.",
        },
      },
      { status: result.status >= 500 ? 500 : 400, headers: forwardedCookies(result) },
    );
  }

  const typed = formText(form, "code");
  const code = method === "backup" ? typed : typed.replace(/[\s-]/g, "");
  if (!code) {
    const description = method === "backup" ? "Please enter a backup code." : "Please enter the 6-digit code.";
    return data<FormResult<"code">>(
      { message: { tone: "error", title: ERROR_TITLE, description }, fieldErrors: { code: description } },
      { status: 400 },
    );
  }

  const path = {
    totp: "/two-factor/verify-totp",
    backup: "/two-factor/verify-backup-code",
    sms: "/two-factor/verify-otp",
  }[method];
  const result = await callAuth(services, request, path, { code });
  const headers = forwardedCookies(result);
  if (result.ok) throw redirect(afterSignInPath(redirectTo), { headers });
  if (result.status === 429) return rateLimited(result);

  const refused = result.body.code;
  // A texted code that has expired, was used, or was tried too often: a new code will do.
  if (method === "sms" && (refused === "OTP_HAS_EXPIRED" || refused === "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE")) {
    const description = "This code has expired or was already used. Send a new code.";
    return data<FormResult<"code">>(
      { message: { tone: "error", title: ERROR_TITLE, description }, fieldErrors: { code: description } },
      { status: 400, headers },
    );
  }
  if (refused === "INVALID_TWO_FACTOR_COOKIE" || refused === "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE") {
    signInExpired(redirectTo, headers);
  }
  const description =
    method === "backup" ? "The backup code is not valid." : "The code is not valid. Please try again.";
  return data<FormResult<"code">>(
    { message: { tone: "error", title: ERROR_TITLE, description }, fieldErrors: { code: description } },
    { status: result.status >= 500 ? 500 : 401, headers },
  );
}

const DESCRIPTIONS: Record<Method, string> = {
  totp: "Enter the 6-digit code from your authenticator app.",
  backup: "Enter one of the backup codes you saved when you turned on two-factor authentication. Each works once.",
  sms: "We text a 6-digit code to your phone.",
};

export default function TwoFactorPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const { method, factors, sent, redirectTo } = loaderData;
  const kept = redirectTo || undefined;
  // The code field of a texted code shows once a code was sent (or one was tried).
  const codeSent = method !== "sms" || sent || Boolean(actionData?.fieldErrors?.code);
  const notice =
    method === "sms" && sent && !actionData
      ? {
          tone: "success" as const,
          title: "Code sent",
          description: `A code was sent to your phone number ending in ${factors.phone?.slice(-4)}. It works for ${PHONE_CODE_MINUTES} minutes.`,
        }
      : undefined;
  const others: Array<[Method, string]> = [
    ["totp", "Use your authenticator app instead"],
    ["sms", "Text me a code instead"],
    ["backup", "Use a backup code instead"],
  ];
  const available = { totp: factors.authenticator, sms: Boolean(factors.phone), backup: factors.backupCodes };
  return (
    <AuthCard
      title="Two-factor authentication"
      description={
        method === "sms" && factors.phone
          ? `We text a 6-digit code to your phone number ending in ${factors.phone.slice(-4)}.`
          : DESCRIPTIONS[method]
      }
      footer={
        <p>
          <Link to={signInPath({ redirectTo: kept })} className={LINK_CLASSES}>
            Start again
          </Link>
        </p>
      }
    >
      <Feedback message={actionData?.message ?? notice} toastKey={actionData?.message ?? (sent ? "sent" : undefined)} />
      <div className="flex flex-col gap-4">
        {codeSent && (
          <Form method="post" className="flex flex-col gap-4" data-testid="two-factor-form">
            <input type="hidden" name="method" value={method} />
            <input type="hidden" name="redirectTo" value={redirectTo} />
            {method === "backup" ? (
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
            ) : (
              <TextField
                key={method}
                label={method === "sms" ? "Code from the text message" : "Authentication code"}
                name="code"
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="[0-9 ]{6,7}"
                maxLength={7}
                required
                autoFocus
                error={actionData?.fieldErrors?.code}
              />
            )}
            <Button type="submit" className="w-full" disabled={submitting}>
              <ShieldCheck aria-hidden="true" className="size-4" />
              {submitting ? "Verifying…" : "Verify"}
            </Button>
          </Form>
        )}
        {method === "sms" && (
          <Form method="post" data-testid="send-code-form">
            <input type="hidden" name="intent" value="send-code" />
            <input type="hidden" name="method" value="sms" />
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <Button type="submit" variant={codeSent ? "secondary" : "primary"} className="w-full" disabled={submitting}>
              <MessageSquareText aria-hidden="true" className="size-4" />
              {codeSent ? "Send a new code" : "Text me a code"}
            </Button>
          </Form>
        )}
        {others
          .filter(([other]) => other !== method && available[other])
          .map(([other, label]) => (
            <Link key={other} to={twoFactorPath(other, kept)} className={`text-sm ${LINK_CLASSES}`}>
              {label}
            </Link>
          ))}
      </div>
    </AuthCard>
  );
}
