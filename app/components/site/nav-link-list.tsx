import { NavLink } from "react-router";
import type { NavItem } from "./nav-items";

const BASE = "block rounded-md px-3 py-2 text-sm font-medium transition-colors hover:bg-surface-raised hover:text-fg";
// Active is shown by colour and by an underline, so it does not rely on colour alone.
const ACTIVE = "bg-surface-raised text-accent underline decoration-2 underline-offset-8";
const INACTIVE = "text-fg-muted";

export interface NavLinkListProps {
  items: readonly NavItem[];
  className?: string;
}

/** NavLink sets aria-current="page" on the active item itself. */
export function NavLinkList({ items, className }: NavLinkListProps) {
  return (
    <ul className={className}>
      {items.map((item) => (
        <li key={item.to}>
          <NavLink to={item.to} end={item.end} className={({ isActive }) => `${BASE} ${isActive ? ACTIVE : INACTIVE}`}>
            {item.label}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}
