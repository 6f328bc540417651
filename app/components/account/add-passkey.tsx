import { Plus } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { useRevalidator } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { TextField } from "~/components/ui/field";
import { authClient } from "~/lib/auth-client";

type Support = "checking" | "supported" | "unsupported";

/** Messages for Better Auth's and the browser's refusals, in the page's words. */
function describeError(error: { code?: string; message?: string; status?: number }): string {
  switch (error.code) {
    case "SESSION_NOT_FRESH":
      return "For your security, sign out and sign in again before adding a passkey.";
    case "ERROR_CEREMONY_ABORTED":
    case "AUTH_CANCELLED":
    case "REGISTRATION_CANCELLED":
      return "Adding the passkey was cancelled.";
    case "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED":
    case "PREVIOUSLY_REGISTERED":
      return "This device already holds a passkey for your account.";
    default:
      return error.message || "The passkey could not be added. Please try again.";
  }
}

/**
 * Registers a passkey with WebAuthn (which needs JavaScript): Better Auth's client asks
 * the server for options, the browser creates the credential, the server verifies it.
 * Without JavaScript, or in a browser without WebAuthn, it says so instead.
 */
export function AddPasskey() {
  const [support, setSupport] = useState<Support>("checking");
  const [busy, setBusy] = useState(false);
  const [name, setName] = useState("");
  const [outcome, setOutcome] = useState<{ ok: boolean; message: string } | null>(null);
  const revalidator = useRevalidator();
  const formId = useId();

  useEffect(() => {
    setSupport(typeof window.PublicKeyCredential === "function" ? "supported" : "unsupported");
  }, []);

  async function add() {
    setBusy(true);
    setOutcome(null);
    try {
      const result = await authClient.passkey.addPasskey({ name: name.trim() || undefined });
      if (result?.error) {
        setOutcome({ ok: false, message: describeError(result.error) });
        return;
      }
      setName("");
      setOutcome({ ok: true, message: "Passkey added. You can now use it to sign in." });
      await revalidator.revalidate();
    } catch (error) {
      setOutcome({ ok: false, message: describeError({ message: (error as Error)?.message }) });
    } finally {
      setBusy(false);
    }
  }

  if (support === "checking") {
    return (
      <p className="text-sm text-fg-muted" data-testid="passkey-needs-js">
        Adding a passkey needs JavaScript.
      </p>
    );
  }
  if (support === "unsupported") {
    return <p className="text-sm text-fg-muted">This browser does not support passkeys.</p>;
  }
  return (
    <form
      id={formId}
      className="flex flex-col gap-3"
      aria-label="Add a passkey"
      onSubmit={(event) => {
        event.preventDefault();
        if (!busy) void add();
      }}
    >
      <TextField
        label="Name (optional)"
        name="passkeyName"
        value={name}
        onChange={(event) => setName(event.target.value)}
        maxLength={64}
        placeholder="e.g. Work laptop"
        hint="Helps you tell your passkeys apart."
        className="max-w-sm"
      />
      <div>
        <Button type="submit" disabled={busy} data-testid="add-passkey">
          <Plus aria-hidden="true" className="size-4" />
          {busy ? "Waiting for your device…" : "Add a passkey"}
        </Button>
      </div>
      {outcome && (
        <Alert tone={outcome.ok ? "success" : "error"} testId="add-passkey-result">
          {outcome.message}
        </Alert>
      )}
    </form>
  );
}
