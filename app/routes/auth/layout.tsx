import { ShieldCheck } from "lucide-react";
import { Link, Outlet } from "react-router";
import { RouteErrorMessage } from "~/components/errors/error-message";
import { SkipLink } from "~/components/site/skip-link";
import { Toaster } from "~/components/ui/toaster";
import { SITE_NAME, siteMeta } from "~/lib/meta";
import { privateResponse } from "~/lib/private-response.server";
import type { Route } from "./+types/layout";

/**
 * Sign-in and account creation: a plain page with the site's name and one card,
 * outside the admin guard. Nothing here may be cached: the pages carry one-time
 * tokens in their URLs and answers that depend on the visitor's cookies.
 */
export const middleware: Route.MiddlewareFunction[] = [async (_args, next) => privateResponse(await next())];

export const meta: Route.MetaFunction = ({ error }) => siteMeta(error);

function AuthFrame({ children }: { children: React.ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <header className="border-b border-line">
        <div className="mx-auto flex h-16 max-w-6xl items-center px-4 sm:px-6">
          <Link to="/" className="flex items-center gap-2 rounded-md text-lg font-semibold tracking-tight text-fg">
            <ShieldCheck aria-hidden="true" className="size-6 text-accent" />
            {SITE_NAME}
          </Link>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="flex flex-1 justify-center px-4 py-10 outline-none sm:py-16">
        <div className="w-full max-w-md">{children}</div>
      </main>
      <Toaster />
    </div>
  );
}

export default function AuthLayout() {
  return (
    <AuthFrame>
      <Outlet />
    </AuthFrame>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <AuthFrame>
      <RouteErrorMessage error={error} />
    </AuthFrame>
  );
}
