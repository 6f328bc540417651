import { lazy, Suspense } from "react";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches } from "react-router";
import type { Route } from "./+types/root";
import appStylesHref from "./app.css?url";
import { accessDeniedReason } from "./components/admin/access-denied-reason";
import { RouteErrorMessage } from "./components/errors/error-message";
import { useNonce } from "./components/nonce";
import { themeFromCookieHeader } from "./components/theme/theme";
import { usePageTheme } from "./components/theme/use-theme";
import { hydratesPage } from "./lib/hydration";
import { siteMeta } from "./lib/meta";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: appStylesHref }];

export const meta: Route.MetaFunction = ({ error }) => siteMeta(error);

/** The theme cookie: <html data-theme> carries it in the first HTML, so no page flashes the wrong theme. */
export function loader({ request }: Route.LoaderArgs) {
  return { theme: themeFromCookieHeader(request.headers.get("cookie")) };
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const theme = usePageTheme();
  // The public content pages are sent without React's scripts (app/lib/hydration.ts).
  const hydrate = hydratesPage(useMatches());
  return (
    <html lang="en" data-theme={theme}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links nonce={nonce} />
      </head>
      <body className="bg-surface font-sans text-fg antialiased">
        {children}
        {hydrate && <ScrollRestoration nonce={nonce} />}
        {hydrate && <Scripts nonce={nonce} />}
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/** Loaded only when needed: public and sign-in pages carry none of the admin's code. */
const AdminErrorPage = lazy(() => import("./components/admin/admin-error-page"));

/**
 * Last resort, when even the public layout failed: no header or footer (they may be
 * what broke), just the message and a way home. The admin guard's 403 of a page load
 * lands here too (React Router gives a middleware's error to the highest route with a
 * loader, the root): it shows the admin's Access Denied page.
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (accessDeniedReason(error)) {
    return (
      <Suspense>
        <AdminErrorPage error={error} />
      </Suspense>
    );
  }
  return (
    <main id="main" className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
      <RouteErrorMessage error={error} />
    </main>
  );
}
