import { useEffect, useId, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/field";

/**
 * The home page's subscribe form. Without JavaScript it posts to the API, which
 * redirects back here with `?newsletter=<code>`; with JavaScript it posts JSON and
 * shows idle / "Subscribing..." / success for 6 seconds / failure inline.
 */

export const SUCCESS_MESSAGE = "Please check your email to confirm your subscription";
export const INVALID_MESSAGE = "Please enter a valid email address";
export const FAILURE_MESSAGE = "Failed to subscribe. Please try again.";
const SUCCESS_DURATION_MS = 6000;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const REDIRECT_MESSAGES: Record<string, { tone: "success" | "error"; text: string }> = {
  success: { tone: "success", text: SUCCESS_MESSAGE },
  invalid: { tone: "error", text: INVALID_MESSAGE },
  "rate-limited": { tone: "error", text: "Too many subscription attempts. Please try again later." },
  error: { tone: "error", text: FAILURE_MESSAGE },
};

type FormState = { kind: "idle" } | { kind: "submitting" } | { kind: "success" } | { kind: "error"; message: string };

export function NewsletterForm() {
  const [searchParams] = useSearchParams();
  const redirected = REDIRECT_MESSAGES[searchParams.get("newsletter") ?? ""];
  const [state, setState] = useState<FormState>({ kind: "idle" });
  const [hydrated, setHydrated] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const inputId = useId();
  const messageId = `${inputId}-message`;

  useEffect(() => {
    setHydrated(true);
    return () => clearTimeout(timer.current);
  }, []);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (state.kind === "submitting") return;
    const form = event.currentTarget;
    const fields = new FormData(form);
    // The honeypot: a filled hidden field silently aborts the submit.
    if (String(fields.get("website") ?? "") !== "") {
      setState({ kind: "success" });
      return;
    }
    const email = String(fields.get("email") ?? "").trim();
    if (!EMAIL_PATTERN.test(email)) {
      setState({ kind: "error", message: INVALID_MESSAGE });
      return;
    }
    setState({ kind: "submitting" });
    try {
      const response = await fetch("/api/newsletter/subscribe", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ email }),
      });
      const body = (await response.json().catch(() => null)) as { success?: boolean; message?: string } | null;
      if (!response.ok || !body?.success) {
        setState({ kind: "error", message: body?.message || FAILURE_MESSAGE });
        return;
      }
      form.reset();
      setState({ kind: "success" });
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setState({ kind: "idle" }), SUCCESS_DURATION_MS);
    } catch {
      setState({ kind: "error", message: FAILURE_MESSAGE });
    }
  }

  const message =
    state.kind === "success"
      ? { tone: "success" as const, text: SUCCESS_MESSAGE }
      : state.kind === "error"
        ? { tone: "error" as const, text: state.message }
        : state.kind === "idle" && !hydrated
          ? redirected
          : undefined;

  return (
    <form
      method="post"
      action="/api/newsletter/subscribe"
      onSubmit={onSubmit}
      noValidate={hydrated}
      data-testid="newsletter-form"
      className="mt-6 max-w-xl"
    >
      <label htmlFor={inputId} className="text-sm font-medium text-fg">
        Email address
      </label>
      <div className="mt-1.5 flex flex-col gap-3 sm:flex-row">
        <Input
          id={inputId}
          name="email"
          type="email"
          required
          autoComplete="email"
          placeholder="you@example.com"
          aria-invalid={state.kind === "error" && state.message === INVALID_MESSAGE ? true : undefined}
          aria-describedby={message ? messageId : undefined}
          data-testid="newsletter-email"
        />
        <Button
          type="submit"
          disabled={state.kind === "submitting"}
          data-testid="newsletter-submit"
          className="shrink-0"
        >
          {state.kind === "submitting" ? "Subscribing..." : "Subscribe"}
        </Button>
      </div>
      {/* Hidden from people (and assistive technology); bots fill it. */}
      <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
        <label htmlFor={`${inputId}-website`}>Website</label>
        <input id={`${inputId}-website`} name="website" type="text" tabIndex={-1} autoComplete="off" />
      </div>
      {message && (
        <div id={messageId} className="mt-3">
          <Alert tone={message.tone} testId="newsletter-message">
            {message.text}
          </Alert>
        </div>
      )}
    </form>
  );
}
