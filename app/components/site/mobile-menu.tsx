import { Menu, X } from "lucide-react";
import { PRIMARY_NAV_ITEMS } from "./nav-items";
import { NavLinkList } from "./nav-link-list";

/**
 * A <details> disclosure, so the menu opens and closes without JavaScript. With it
 * (app/enhancements/public-page.js, for details marked data-closes-on-escape), it
 * also closes on a link click, on Escape (the focus back on the toggle) and on a
 * click outside.
 */
export function MobileMenu() {
  return (
    <details id="mobile-menu" data-closes-on-escape className="group md:hidden">
      <summary
        data-testid="mobile-menu-toggle"
        className="flex size-10 cursor-pointer list-none items-center justify-center rounded-md text-fg hover:bg-surface-raised [&::-webkit-details-marker]:hidden"
      >
        <Menu aria-hidden="true" className="size-6 group-open:hidden" />
        <X aria-hidden="true" className="hidden size-6 group-open:block" />
        <span className="sr-only">Menu</span>
      </summary>
      <nav
        aria-label="Mobile"
        data-testid="mobile-nav"
        className="absolute inset-x-0 top-full z-40 border-b border-line bg-surface px-4 pt-2 pb-4 shadow-lg"
      >
        <NavLinkList items={PRIMARY_NAV_ITEMS} className="flex flex-col gap-1" />
      </nav>
    </details>
  );
}
