import { Links, Meta, Outlet, Scripts, ScrollRestoration } from "react-router";
import type { Route } from "./+types/root";
import appStylesHref from "./app.css?url";
import { RouteErrorMessage } from "./components/errors/error-message";
import { useNonce } from "./components/nonce";
import { Toaster } from "./components/ui/toaster";
import { siteMeta } from "./lib/meta";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: appStylesHref }];

export const meta: Route.MetaFunction = ({ error }) => siteMeta(error);

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links nonce={nonce} />
      </head>
      <body className="bg-surface font-sans text-fg antialiased">
        {children}
        <Toaster />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
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
