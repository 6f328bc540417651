import { House, LayoutDashboard, LogOut, ShieldAlert } from "lucide-react";
import { Link } from "react-router";
import { buttonVariants } from "~/components/ui/button";
import type { AccessDeniedReason } from "../../../server/auth/guards.ts";
import { SignOutForm } from "./sign-out-form";

/** The spec's texts ("Access guard for /admin"). */
export const ACCESS_DENIED_TEXT: Record<AccessDeniedReason, string> = {
  "admin-required": "Admin privileges are required.",
  "no-role": "You don't have permission to access the admin dashboard.",
};

const PRIMARY = buttonVariants({ variant: "primary" });
const SECONDARY = buttonVariants({ variant: "secondary" });

/**
 * What the admin guard's 403 shows. An editor on an admin-only page is offered the
 * way back to the dashboard; a user without any role can only leave or sign out.
 */
export function AccessDenied({ reason }: { reason: AccessDeniedReason }) {
  return (
    <div data-testid="access-denied" className="mx-auto max-w-xl py-12 text-center">
      <ShieldAlert aria-hidden="true" className="mx-auto size-12 text-accent" />
      <h1 className="mt-4 text-3xl font-bold tracking-tight text-fg sm:text-4xl">Access Denied</h1>
      <p data-testid="access-denied-reason" className="mt-4 text-fg-muted">
        {ACCESS_DENIED_TEXT[reason]}
      </p>
      <div className="mt-8 flex flex-wrap items-center justify-center gap-3">
        {reason === "admin-required" ? (
          <Link to="/admin" className={PRIMARY}>
            <LayoutDashboard aria-hidden="true" className="size-4" />
            Back to Dashboard
          </Link>
        ) : (
          <>
            <a href="/" className={PRIMARY}>
              <House aria-hidden="true" className="size-4" />
              View Site
            </a>
            <SignOutForm className={SECONDARY}>
              <LogOut aria-hidden="true" className="size-4" />
              Sign Out
            </SignOutForm>
          </>
        )}
      </div>
    </div>
  );
}
