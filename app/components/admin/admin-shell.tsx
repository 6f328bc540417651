import { ExternalLink, ShieldCheck } from "lucide-react";
import type { ReactNode } from "react";
import { Link, useNavigation } from "react-router";
import { SkipLink } from "~/components/site/skip-link";
import { ThemeMenu } from "~/components/theme/theme-menu";
import { Spinner } from "~/components/ui/spinner";
import { Toaster } from "~/components/ui/toaster";
import { SITE_NAME } from "~/lib/meta";
import { AccountMenu } from "./account-menu";
import { AdminDrawer } from "./admin-drawer";
import { AdminNav } from "./admin-nav";

/**
 * The admin layout of the spec: a header (menu toggle on small screens, View Site,
 * account menu), the sidebar (a drawer on small screens) and the page. Reads the
 * viewer from useAuth, so it must sit inside an AuthProvider.
 */
export function AdminShell({ children }: { children: ReactNode }) {
  const navigation = useNavigation();
  const pending = navigation.state !== "idle";
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <header className="sticky top-0 z-30 border-b border-line bg-surface">
        <div className="flex h-16 items-center gap-2 px-4 sm:px-6">
          <AdminDrawer />
          <Link to="/admin" className="flex items-center gap-2 rounded-md text-lg font-semibold tracking-tight text-fg">
            <ShieldCheck aria-hidden="true" className="size-6 text-accent" />
            <span>
              {SITE_NAME} <span className="font-normal text-fg-muted max-sm:sr-only">Admin</span>
            </span>
          </Link>
          <div data-testid="navigation-pending" className="ml-2 flex size-6 items-center">
            {pending && <Spinner label="Loading page…" />}
          </div>
          <div className="ml-auto flex items-center gap-1 sm:gap-3">
            <a
              href="/"
              target="_blank"
              rel="noopener noreferrer"
              data-testid="view-site"
              className="flex items-center gap-1.5 rounded-md px-2 py-1.5 text-sm font-medium text-fg-muted hover:bg-surface-raised hover:text-fg"
            >
              <ExternalLink aria-hidden="true" className="size-4" />
              <span className="max-sm:sr-only">View Site</span>
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
            <ThemeMenu />
            <AccountMenu />
          </div>
        </div>
      </header>
      <div className="flex flex-1">
        <aside className="hidden w-64 shrink-0 border-r border-line md:block">
          <div className="sticky top-16 p-4">
            <AdminNav label="Admin" testId="admin-sidebar" />
          </div>
        </aside>
        {/* tabIndex: the skip link moves focus here, not just the scroll position. */}
        <main id="main" tabIndex={-1} aria-busy={pending} className="min-w-0 flex-1 outline-none">
          <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6 lg:px-8">{children}</div>
        </main>
      </div>
      {/* Toasts live in the admin and sign-in layouts only: public pages carry no toast code. */}
      <Toaster />
    </div>
  );
}
