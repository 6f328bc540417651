import type { ReactNode } from "react";
import { PublicEnhancements } from "./public-enhancements";
import { SiteFooter } from "./site-footer";
import { SiteHeader } from "./site-header";
import { SkipLink } from "./skip-link";

export interface PublicShellProps {
  linkedinUrl: string | null;
  year: number;
  children: ReactNode;
}

export function PublicShell({ linkedinUrl, year, children }: PublicShellProps) {
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <SiteHeader />
      {/* tabIndex: the skip link moves focus here, not just the scroll position. Editors'
          text may hold a long URL: it breaks rather than widening the page. */}
      <main id="main" tabIndex={-1} className="flex-1 wrap-anywhere outline-none">
        <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6">{children}</div>
      </main>
      <SiteFooter linkedinUrl={linkedinUrl} year={year} />
      <PublicEnhancements />
    </div>
  );
}
