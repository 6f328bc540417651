import type { ReactNode } from "react";

/**
 * Sign Out as a plain form POST (not a client-side submission): it works without
 * JavaScript, and the full page load that follows leaves no signed-in state behind
 * in the browser's memory.
 */
export function SignOutForm({ className, children }: { className: string; children: ReactNode }) {
  return (
    <form method="post" action="/auth/sign-out">
      <button type="submit" className={className} data-testid="sign-out">
        {children}
      </button>
    </form>
  );
}
