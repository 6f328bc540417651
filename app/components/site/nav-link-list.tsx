import { useLocation } from "react-router";
import type { NavItem } from "./nav-items";

const BASE = "block rounded-md px-3 py-2 text-sm font-medium transition-colors hover:bg-surface-raised hover:text-fg";
// Active is shown by colour and by an underline, so it does not rely on colour alone.
const ACTIVE = "bg-surface-raised text-accent underline decoration-2 underline-offset-8";
const INACTIVE = "text-fg-muted";

export interface NavLinkListProps {
  items: readonly NavItem[];
  className?: string;
}

/**
 * Whether `item` names the page at `pathname`, as React Router's NavLink decides it:
 * the path itself, or, unless the item says `end`, a page under it.
 */
export function isCurrentItem(item: NavItem, pathname: string): boolean {
  const current = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  if (current === item.to) return true;
  return !item.end && current.startsWith(item.to) && current.charAt(item.to.length) === "/";
}

/**
 * Plain anchors, as on every public page (docs/decisions/009-public-pages-without-hydration.md),
 * with aria-current="page" on the current item.
 */
export function NavLinkList({ items, className }: NavLinkListProps) {
  const { pathname } = useLocation();
  return (
    <ul className={className}>
      {items.map((item) => {
        const current = isCurrentItem(item, pathname);
        return (
          <li key={item.to}>
            <a
              href={item.to}
              aria-current={current ? "page" : undefined}
              className={`${BASE} ${current ? ACTIVE : INACTIVE}`}
            >
              {item.label}
            </a>
          </li>
        );
      })}
    </ul>
  );
}
