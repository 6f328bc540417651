import { ChevronDown, CircleUser, LogOut } from "lucide-react";
import { Link } from "react-router";
import { useAuth } from "~/lib/use-auth";
import { SignOutForm } from "./sign-out-form";
import { useDetails } from "./use-details";

/** The name to show: the full name, or the email when there is none. */
export function displayName(user: { name: string; email: string }): string {
  return user.name.trim() || user.email;
}

/** The first letter of the display name, upper-cased (a whole character, not half an emoji). */
export function initialOf(name: string): string {
  return (Array.from(name.trim())[0] ?? "?").toLocaleUpperCase();
}

const ITEM =
  "flex w-full items-center gap-2 rounded-md px-3 py-2 text-left text-sm font-medium text-fg hover:bg-surface cursor-pointer";

/**
 * The header's account menu: a <details> disclosure (works without JavaScript), showing
 * the user's initial and name or email, with the account page and Sign Out. Sign Out is
 * a form POST to /auth/sign-out, so it works without JavaScript too.
 */
export function AccountMenu() {
  const { user, isAdmin } = useAuth();
  const { close, detailsProps } = useDetails();
  const name = displayName(user);
  return (
    <details className="group relative" data-testid="account-menu" {...detailsProps}>
      <summary
        data-testid="account-menu-toggle"
        className="flex cursor-pointer list-none items-center gap-2 rounded-md px-2 py-1.5 text-sm font-medium text-fg hover:bg-surface-raised [&::-webkit-details-marker]:hidden"
      >
        <span
          aria-hidden="true"
          className="flex size-8 shrink-0 items-center justify-center rounded-full bg-accent font-semibold text-on-accent"
        >
          {initialOf(name)}
        </span>
        <span className="sr-only">Account: </span>
        <span data-testid="account-menu-name" className="max-w-40 truncate max-sm:sr-only">
          {name}
        </span>
        <ChevronDown aria-hidden="true" className="size-4 text-fg-muted transition-transform group-open:rotate-180" />
      </summary>
      <div className="absolute top-full right-0 z-50 mt-2 w-64 rounded-lg border border-line bg-surface-raised p-2 shadow-xl">
        <div className="border-b border-line px-3 pt-1 pb-3">
          <p className="truncate text-sm font-semibold text-fg">{name}</p>
          {name !== user.email && <p className="truncate text-sm text-fg-muted">{user.email}</p>}
          <p className="mt-1 text-xs text-fg-muted">{isAdmin ? "Administrator" : "Editor"}</p>
        </div>
        <ul className="mt-2 flex flex-col gap-1">
          <li>
            <Link to="/admin/account" className={ITEM} onClick={close}>
              <CircleUser aria-hidden="true" className="size-4" />
              Account
            </Link>
          </li>
          <li>
            <SignOutForm className={ITEM}>
              <LogOut aria-hidden="true" className="size-4" />
              Sign Out
            </SignOutForm>
          </li>
        </ul>
      </div>
    </details>
  );
}
