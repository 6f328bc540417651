import { KeyRound } from "lucide-react";
import { useState, useSyncExternalStore } from "react";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { authClient } from "~/lib/auth-client";

const noSubscription = () => () => {};

/** False during the server render and hydration, true once the page's JavaScript runs. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

/**
 * "Sign in with a passkey": WebAuthn needs JavaScript, so without it the button is not
 * offered at all (the password form works either way). On success the page is loaded
 * afresh at the destination, so every loader sees the new session cookie.
 */
export function PasskeySignIn({ redirectTo }: { redirectTo: string }) {
  const hydrated = useHydrated();
  const [busy, setBusy] = useState(false);
  if (!hydrated) return null;

  async function signIn() {
    setBusy(true);
    try {
      const { error } = await authClient.signIn.passkey();
      if (error) {
        toast.error("Error signing in", {
          description:
            error.status === 429
              ? "Too many attempts. Please try again later."
              : error.message || "The passkey could not be used. Please try again.",
        });
        return;
      }
      window.location.assign(redirectTo);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Button variant="secondary" className="w-full" onClick={signIn} disabled={busy} data-testid="passkey-sign-in">
      <KeyRound aria-hidden="true" className="size-4" />
      {busy ? "Waiting for your passkey…" : "Sign in with a passkey"}
    </Button>
  );
}
