import { Outlet } from "react-router";
import { RouteErrorMessage } from "~/components/errors/error-message";
import { PublicShell } from "~/components/site/public-shell";
import { servicesContext } from "~/context";
import type { HydrationHandle } from "~/lib/hydration";
import { siteMeta } from "~/lib/meta";
import { getSiteSettings } from "../../../server/content/site-settings.ts";
import type { Route } from "./+types/layout";

export async function loader({ context }: Route.LoaderArgs) {
  const settings = await getSiteSettings(context.get(servicesContext).db);
  // The year comes from the server with the data, so hydration never disagrees with the HTML.
  return {
    linkedinUrl: settings.linkedin_url,
    year: new Date().getFullYear(),
  };
}

export const meta: Route.MetaFunction = ({ error }) => siteMeta(error);

// Complete in their server HTML: sent without React's scripts (app/lib/hydration.ts).
export const handle: HydrationHandle = { hydrate: false };

export default function PublicLayout({ loaderData }: Route.ComponentProps) {
  return (
    <PublicShell linkedinUrl={loaderData.linkedinUrl} year={loaderData.year}>
      <Outlet />
    </PublicShell>
  );
}

/** A failing page keeps the site's header and footer, so the visitor can navigate on. */
export function ErrorBoundary({ error, loaderData }: Route.ErrorBoundaryProps) {
  return (
    <PublicShell linkedinUrl={loaderData?.linkedinUrl ?? null} year={loaderData?.year ?? new Date().getFullYear()}>
      <RouteErrorMessage error={error} />
    </PublicShell>
  );
}
