import { NavLink } from "react-router";
import { useAuth } from "~/lib/use-auth";
import { visibleNavItems } from "./nav-items";

const BASE =
  "flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium transition-colors hover:bg-surface-raised hover:text-fg";
// Active is shown by colour, weight and a bar on the left, so it does not rely on colour alone.
const ACTIVE = "bg-surface-raised text-accent font-semibold shadow-[inset_3px_0_0_var(--color-accent)]";
const INACTIVE = "text-fg-muted";

export interface AdminNavProps {
  /** Names the landmark; the desktop sidebar and the mobile drawer need different names. */
  label: string;
  testId: string;
  /** Also fires for keyboard activation: Enter on a link dispatches a click. */
  onLinkClick?: () => void;
}

/**
 * The sidebar's links. NavLink marks the active one with aria-current="page": Dashboard
 * on its exact path, the others on their path and everything below it.
 */
export function AdminNav({ label, testId, onLinkClick }: AdminNavProps) {
  const { isAdmin } = useAuth();
  return (
    <nav aria-label={label} data-testid={testId}>
      <ul className="flex flex-col gap-1">
        {visibleNavItems(isAdmin).map(({ to, label: itemLabel, icon: Icon, end }) => (
          <li key={to}>
            <NavLink
              to={to}
              end={end}
              onClick={onLinkClick}
              className={({ isActive }) => `${BASE} ${isActive ? ACTIVE : INACTIVE}`}
            >
              <Icon aria-hidden="true" className="size-4 shrink-0" />
              {itemLabel}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
