import { Menu, X } from "lucide-react";
import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { PRIMARY_NAV_ITEMS } from "./nav-items";
import { NavLinkList } from "./nav-link-list";

/**
 * A <details> disclosure, so the menu opens and closes without JavaScript.
 * With JavaScript it also closes on a link click, on Escape and on a click outside.
 */
export function MobileMenu() {
  const detailsRef = useRef<HTMLDetailsElement>(null);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (!open) return;
    function closeOnOutsideClick(event: PointerEvent) {
      const details = detailsRef.current;
      if (details && !details.contains(event.target as Node)) details.open = false;
    }
    document.addEventListener("pointerdown", closeOnOutsideClick);
    return () => document.removeEventListener("pointerdown", closeOnOutsideClick);
  }, [open]);

  function close() {
    if (detailsRef.current) detailsRef.current.open = false;
  }

  function closeOnEscape(event: KeyboardEvent<HTMLDetailsElement>) {
    const details = detailsRef.current;
    if (event.key !== "Escape" || !details?.open) return;
    details.open = false;
    details.querySelector("summary")?.focus();
  }

  return (
    <details
      id="mobile-menu"
      ref={detailsRef}
      className="group md:hidden"
      onToggle={(event) => setOpen(event.currentTarget.open)}
      onKeyDown={closeOnEscape}
    >
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
        <NavLinkList items={PRIMARY_NAV_ITEMS} className="flex flex-col gap-1" onLinkClick={close} />
      </nav>
    </details>
  );
}
