import { useId } from "react";
import { useSearchParams } from "react-router";
import { Alert } from "~/components/ui/alert";
import { buttonVariants } from "~/components/ui/button-variants";
import { CONTROL } from "~/components/ui/control-classes";

/**
 * The home page's subscribe form. Without JavaScript it posts to the API, which
 * redirects back here with `?newsletter=<code>`, shown below the form. With JavaScript
 * (app/enhancements/public-page.js) it posts JSON and shows idle / "Subscribing..." /
 * success for 6 seconds / failure inline, with the texts of the data attributes and
 * the alerts of the templates below.
 */

const SUCCESS_MESSAGE = "Please check your email to confirm your subscription";
const INVALID_MESSAGE = "Please enter a valid email address";
const FAILURE_MESSAGE = "Failed to subscribe. Please try again.";

const REDIRECT_MESSAGES: Record<string, { tone: "success" | "error"; text: string }> = {
  success: { tone: "success", text: SUCCESS_MESSAGE },
  invalid: { tone: "error", text: INVALID_MESSAGE },
  "rate-limited": { tone: "error", text: "Too many subscription attempts. Please try again later." },
  error: { tone: "error", text: FAILURE_MESSAGE },
};

export function NewsletterForm() {
  const [searchParams] = useSearchParams();
  const redirected = REDIRECT_MESSAGES[searchParams.get("newsletter") ?? ""];
  const inputId = useId();
  const messageId = `${inputId}-message`;

  return (
    <form
      method="post"
      action="/api/newsletter/subscribe"
      data-newsletter-form
      data-success-message={SUCCESS_MESSAGE}
      data-invalid-message={INVALID_MESSAGE}
      data-failure-message={FAILURE_MESSAGE}
      data-testid="newsletter-form"
      className="mt-6 max-w-xl"
    >
      <label htmlFor={inputId} className="text-sm font-medium text-fg">
        Email address
      </label>
      <div className="mt-1.5 flex flex-col gap-3 sm:flex-row">
        {/* Plain controls with the kit's look: a public page ships no form kit. */}
        <input
          className={CONTROL}
          id={inputId}
          name="email"
          type="email"
          required
          autoComplete="email"
          placeholder="you@example.com"
          aria-invalid={redirected?.text === INVALID_MESSAGE ? true : undefined}
          aria-describedby={redirected ? messageId : undefined}
          data-testid="newsletter-email"
        />
        <button type="submit" data-testid="newsletter-submit" className={buttonVariants({ className: "shrink-0" })}>
          Subscribe
        </button>
      </div>
      {/* Hidden from people (and assistive technology); bots fill it. */}
      <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
        <label htmlFor={`${inputId}-website`}>Website</label>
        <input id={`${inputId}-website`} name="website" type="text" tabIndex={-1} autoComplete="off" />
      </div>
      <div id={messageId} data-form-message className="mt-3 empty:hidden">
        {redirected && (
          <Alert tone={redirected.tone} testId="newsletter-message">
            {redirected.text}
          </Alert>
        )}
      </div>
      {(["success", "error"] as const).map((tone) => (
        <template key={tone} data-alert={tone}>
          <Alert tone={tone} testId="newsletter-message">
            <span data-alert-text />
          </Alert>
        </template>
      ))}
    </form>
  );
}
