import { CircleAlert, CircleCheck } from "lucide-react";
import { type FormEvent, useState } from "react";
import { data, Form, Link } from "react-router";
import { PageTitle } from "~/components/site/page-title";
import { buttonVariants } from "~/components/ui/button-variants";
import { Spinner } from "~/components/ui/spinner";
import { servicesContext } from "~/context";
import type { HydrationHandle } from "~/lib/hydration";
import { pageTitle } from "~/lib/meta";
import { readForm } from "~/lib/read-form.server";
import { confirmSubscription } from "../../../server/newsletter/subscribers.ts";
import type { Route } from "./+types/newsletter-confirm";

/**
 * /newsletter/confirm?token=…: mail scanners open links, and some run their scripts,
 * so neither showing the page nor its script changes anything. The page says what the
 * button does; the confirmation is the POST a person makes by pressing it (a fetch to
 * the API when JavaScript runs, this route's action otherwise).
 */

const MISSING_TOKEN = "Invalid confirmation link. Please check your email and try again.";
const FAILURE = "Failed to confirm subscription. Please try again.";
const NETWORK_ERROR = "An error occurred. Please try again later.";

// The confirmation is a POST the page makes itself, with its states: React runs here.
export const handle: HydrationHandle = { hydrate: true };

export const meta: Route.MetaFunction = () => [
  { title: pageTitle("Confirm subscription") },
  { name: "robots", content: "noindex" },
];

export function loader({ request }: Route.LoaderArgs) {
  return { token: new URL(request.url).searchParams.get("token")?.trim() || null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const token = (await readForm(request)).get("token");
  // A missing, unknown or expired token is bad input: 400, as the JSON endpoint answers it.
  if (typeof token !== "string" || token.trim() === "" || token.length > 500) {
    return data({ success: false as const, error: MISSING_TOKEN }, { status: 400 });
  }
  const result = await confirmSubscription(services.db, services, token.trim());
  if (!result.success) return data({ success: false as const, error: result.error }, { status: 400 });
  if (!result.alreadyConfirmed) services.mail.wake();
  return { success: true as const };
}

type ConfirmState = { kind: "ready" } | { kind: "loading" } | { kind: "success" } | { kind: "error"; message: string };

export default function NewsletterConfirmPage({ loaderData, actionData }: Route.ComponentProps) {
  const { token } = loaderData;
  const [state, setState] = useState<ConfirmState>(() =>
    actionData
      ? actionData.success
        ? { kind: "success" }
        : { kind: "error", message: actionData.error || FAILURE }
      : token
        ? { kind: "ready" }
        : { kind: "error", message: MISSING_TOKEN },
  );

  function confirmWithScript(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setState({ kind: "loading" });
    fetch("/api/newsletter/confirm", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ token }),
    })
      .then(async (response) => {
        const body = (await response.json().catch(() => null)) as { success?: boolean; error?: string } | null;
        setState(
          response.ok && body?.success ? { kind: "success" } : { kind: "error", message: body?.error || FAILURE },
        );
      })
      .catch(() => setState({ kind: "error", message: NETWORK_ERROR }));
  }

  return (
    <div className="mx-auto max-w-xl py-8 text-center" data-testid="newsletter-confirm" data-state={state.kind}>
      <PageTitle>Confirm subscription</PageTitle>
      <div className="mt-8">
        {state.kind === "ready" && (
          <Form method="post" className="flex flex-col items-center gap-4" onSubmit={confirmWithScript}>
            <p className="text-fg-muted">
              Press the button to confirm your subscription: you will then receive an email whenever new projects, tips
              and resources are published. Nothing happens until you press it.
            </p>
            <input type="hidden" name="token" value={token ?? ""} />
            {/* A plain button with the kit's look: this page is hydrated, and its script is budgeted. */}
            <button type="submit" className={buttonVariants()} data-testid="confirm-button">
              Confirm subscription
            </button>
          </Form>
        )}
        {state.kind === "loading" && (
          <div className="flex flex-col items-center gap-3">
            <Spinner label="Confirming your subscription…" className="size-8" />
            <p className="text-fg-muted">Confirming your subscription…</p>
          </div>
        )}
        {state.kind === "success" && (
          <div role="status" className="flex flex-col items-center gap-4" data-testid="confirm-success">
            <CircleCheck aria-hidden="true" className="size-10 text-accent" />
            <p className="text-lg font-semibold text-fg">
              Your subscription has been confirmed! Welcome to Premier Updates
            </p>
            <p className="text-fg-muted">
              You will receive instant notifications by email whenever new projects, tips and resources are published.
            </p>
            <Link to="/" className={buttonVariants({ variant: "primary" })}>
              Return to Home
            </Link>
          </div>
        )}
        {state.kind === "error" && (
          <div role="alert" className="flex flex-col items-center gap-4" data-testid="confirm-error">
            <CircleAlert aria-hidden="true" className="size-10 text-danger" />
            <p className="text-fg">{state.message}</p>
            <Link to="/" className={buttonVariants({ variant: "secondary" })}>
              Return to Home
            </Link>
          </div>
        )}
      </div>
    </div>
  );
}
