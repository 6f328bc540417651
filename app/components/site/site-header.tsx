import { ShieldCheck } from "lucide-react";
import { ThemeToggle } from "~/components/theme/theme-toggle";
import { SITE_NAME } from "~/lib/meta";
import { MobileMenu } from "./mobile-menu";
import { PRIMARY_NAV_ITEMS } from "./nav-items";
import { NavLinkList } from "./nav-link-list";

export function SiteHeader() {
  return (
    // relative: the mobile menu panel drops down across the full header width.
    <header data-print="hide" className="relative border-b border-line bg-surface/95">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <a href="/" className="flex items-center gap-2 rounded-md text-lg font-semibold tracking-tight text-fg">
          <ShieldCheck aria-hidden="true" className="size-6 text-accent" />
          {SITE_NAME}
        </a>
        <nav aria-label="Primary" data-testid="primary-nav" className="hidden md:block">
          <NavLinkList items={PRIMARY_NAV_ITEMS} className="flex items-center gap-1" />
        </nav>
        <div className="flex items-center gap-2">
          <ThemeToggle />
          <MobileMenu />
        </div>
      </div>
    </header>
  );
}
