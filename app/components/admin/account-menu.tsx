import { ChevronDown, CircleUser, LogOut } from "lucide-react";
import { useRef } from "react";
import { Link } from "react-router";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "~/components/ui/dropdown-menu";
import { useAuth } from "~/lib/use-auth";

/** The name to show: the full name, or the email when there is none. */
export function displayName(user: { name: string; email: string }): string {
  return user.name.trim() || user.email;
}

/** The first letter of the display name, upper-cased (a whole character, not half an emoji). */
export function initialOf(name: string): string {
  return (Array.from(name.trim())[0] ?? "?").toLocaleUpperCase();
}

/**
 * The header's account menu: the user's initial and name or email, their role, the
 * account page and Sign Out. Sign Out posts the form below (a full page load, so no
 * signed-in state stays in the browser's memory).
 */
export function AccountMenu() {
  const { user, isAdmin } = useAuth();
  const signOutForm = useRef<HTMLFormElement>(null);
  const name = displayName(user);
  return (
    <>
      {/* Not modal: a menu of two links leaves the page reachable (no aria-hidden page behind it); Escape and a click outside still close it. */}
      <DropdownMenu modal={false}>
        <DropdownMenuTrigger
          data-testid="account-menu-toggle"
          className="group flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-sm font-medium text-fg hover:bg-surface-raised"
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
          <ChevronDown
            aria-hidden="true"
            className="size-4 text-fg-muted transition-transform group-data-[state=open]:rotate-180"
          />
        </DropdownMenuTrigger>
        <DropdownMenuContent className="w-64" data-testid="account-menu">
          <DropdownMenuLabel className="px-3 pt-1 pb-2" data-testid="account-menu-who">
            <span className="block truncate text-sm font-semibold text-fg">{name}</span>
            {name !== user.email && <span className="block truncate text-sm text-fg-muted">{user.email}</span>}
            <span className="mt-1 block text-xs text-fg-muted">{isAdmin ? "Administrator" : "Editor"}</span>
          </DropdownMenuLabel>
          <DropdownMenuSeparator />
          <DropdownMenuItem asChild>
            <Link to="/admin/account">
              <CircleUser aria-hidden="true" />
              Account
            </Link>
          </DropdownMenuItem>
          <DropdownMenuItem data-testid="sign-out" onSelect={() => signOutForm.current?.requestSubmit()}>
            <LogOut aria-hidden="true" />
            Sign Out
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <form ref={signOutForm} method="post" action="/auth/sign-out" hidden />
    </>
  );
}
