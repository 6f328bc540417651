import type { ReactNode } from "react";
import { Button, type ButtonProps } from "~/components/ui/button";
import type { FormActionData } from "~/lib/forms";
import { useActionFetcher } from "./use-action-fetcher";

export interface IntentButtonProps extends Omit<ButtonProps, "onClick" | "type" | "asChild"> {
  /** The action's intent, and the fields posted with it (the item's id, say). */
  intent: string;
  fields?: Record<string, string>;
  /** Shown instead of the children while the answer is awaited. */
  pendingLabel: ReactNode;
  /** The route to post to (default: the current route). */
  action?: string;
  onSuccess?: (answer: FormActionData) => void;
}

/**
 * A button that posts one intent at once, without a confirmation: for what is harmless
 * or easy to undo (resend an email, retry, create a token). Destructive actions use
 * ConfirmAction. The answer's toast says how it went.
 */
export function IntentButton({
  intent,
  fields = {},
  pendingLabel,
  action,
  onSuccess,
  children,
  disabled,
  ...props
}: IntentButtonProps) {
  const { fetcher, busy } = useActionFetcher(intent, { onSuccess });
  return (
    <Button
      {...props}
      disabled={disabled || busy}
      onClick={() => fetcher.submit({ intent, ...fields }, { method: "post", action })}
    >
      {busy ? pendingLabel : children}
    </Button>
  );
}
