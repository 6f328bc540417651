import { CircleAlert, CircleCheck } from "lucide-react";
import { data, Link, useFetcher } from "react-router";
import { PageTitle } from "~/components/site/page-title";
import { buttonVariants } from "~/components/ui/button-variants";
import { servicesContext } from "~/context";
import type { HydrationHandle } from "~/lib/hydration";
import { pageTitle } from "~/lib/meta";
import { readForm } from "~/lib/read-form.server";
import { unsubscribeWithToken } from "../../../server/newsletter/subscribers.ts";
import type { Route } from "./+types/newsletter-unsubscribe";

/**
 * /newsletter/unsubscribe?token=…: asks first (Unsubscribe / Keep Subscription); the
 * Unsubscribe button posts to this route's action, with or without JavaScript.
 */

// The question, then its outcome, without reloading the page: React runs here.
export const handle: HydrationHandle = { hydrate: true };

export const meta: Route.MetaFunction = () => [
  { title: pageTitle("Unsubscribe") },
  { name: "robots", content: "noindex" },
];

export function loader({ request }: Route.LoaderArgs) {
  return { token: new URL(request.url).searchParams.get("token")?.trim() || null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const token = (await readForm(request)).get("token");
  // A link that is not one of ours is bad input: 400, as the JSON endpoint answers it.
  if (typeof token !== "string" || token.trim() === "" || token.length > 500) {
    return data({ success: false }, { status: 400 });
  }
  const result = await unsubscribeWithToken(services.db, services.secret, token.trim());
  return data({ success: result.success }, { status: result.success ? 200 : 400 });
}

export default function NewsletterUnsubscribePage({ loaderData, actionData }: Route.ComponentProps) {
  const { token } = loaderData;
  const fetcher = useFetcher<typeof action>();
  const result = fetcher.data ?? actionData;
  // The action refuses only a link that is not one of ours: the page then says so, as for no token.
  const state =
    !token || result?.success === false
      ? "invalid"
      : result?.success
        ? "success"
        : fetcher.state !== "idle"
          ? "pending"
          : "idle";

  return (
    <div className="mx-auto max-w-xl py-8 text-center" data-testid="newsletter-unsubscribe" data-state={state}>
      {state === "invalid" && (
        <div role="alert" className="flex flex-col items-center gap-4" data-testid="unsubscribe-invalid">
          <CircleAlert aria-hidden="true" className="size-10 text-danger" />
          <PageTitle>Invalid Link</PageTitle>
          <p className="text-fg-muted">This unsubscribe link is invalid. Please check your email and try again.</p>
          <Link to="/" className={buttonVariants({ variant: "secondary" })}>
            Return to Home
          </Link>
        </div>
      )}
      {(state === "idle" || state === "pending") && (
        <div className="flex flex-col items-center gap-4">
          <PageTitle>Unsubscribe</PageTitle>
          <p className="text-fg-muted">Are you sure you want to unsubscribe from the newsletter?</p>
          <fetcher.Form method="post" className="flex flex-wrap justify-center gap-3">
            <input type="hidden" name="token" value={token ?? ""} />
            {/* A plain button with the kit's look: this page is hydrated, and its script is budgeted. */}
            <button
              type="submit"
              className={buttonVariants({ variant: "danger" })}
              disabled={state === "pending"}
              data-testid="unsubscribe-button"
            >
              {state === "pending" ? "Unsubscribing..." : "Unsubscribe"}
            </button>
            <Link to="/" className={buttonVariants({ variant: "secondary" })} data-testid="keep-subscription">
              Keep Subscription
            </Link>
          </fetcher.Form>
        </div>
      )}
      {state === "success" && (
        <div role="status" className="flex flex-col items-center gap-4" data-testid="unsubscribe-success">
          <CircleCheck aria-hidden="true" className="size-10 text-accent" />
          <PageTitle>Unsubscribed Successfully</PageTitle>
          <p className="text-fg-muted">
            You will no longer receive emails from us. You can subscribe again at any time from the website.
          </p>
          <Link to="/" className={buttonVariants({ variant: "primary" })}>
            Return to Home
          </Link>
        </div>
      )}
    </div>
  );
}
