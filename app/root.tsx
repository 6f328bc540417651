import { Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches } from "react-router";
import type { Route } from "./+types/root";
import appStylesHref from "./app.css?url";
import { RouteErrorMessage } from "./components/errors/error-message";
import { useNonce } from "./components/nonce";
import { usePageTheme } from "./components/theme/page-theme";
import { APPLY_THEME_SCRIPT } from "./components/theme/theme";
import { hydratesPage } from "./lib/hydration";
import { siteMeta } from "./lib/meta";

// The icons and the web manifest are files of public/, served at the site's root.
export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: appStylesHref },
  { rel: "icon", href: "/favicon.ico", sizes: "16x16 32x32 48x48" },
  { rel: "icon", href: "/icon.svg", type: "image/svg+xml" },
  { rel: "apple-touch-icon", href: "/apple-touch-icon.png" },
  { rel: "manifest", href: "/site.webmanifest" },
];

export const meta: Route.MetaFunction = ({ error }) => siteMeta(error);

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const theme = usePageTheme();
  // The public content pages are sent without React's scripts (app/lib/hydration.ts).
  const hydrate = hydratesPage(useMatches());
  return (
    <html lang="en" data-theme={theme}>
      <head>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script of ours, allowed by the CSP nonce. */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: APPLY_THEME_SCRIPT }} />
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

/**
 * Last resort, when even the public layout failed: no header or footer (they may be
 * what broke), just the message and a way home.
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <main id="main" className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
      <RouteErrorMessage error={error} />
    </main>
  );
}
