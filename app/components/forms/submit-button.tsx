import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Button, type ButtonProps } from "~/components/ui/button";
import { cn } from "~/lib/cn";

export interface SubmitButtonProps extends Omit<ButtonProps, "type" | "asChild"> {
  /** Whether the form's answer is awaited: the button sends nothing, looks disabled and says so. */
  busy: boolean;
  /** Shown instead of the children while busy ("Saving..."). */
  pendingLabel: ReactNode;
  /** An icon before the label. */
  icon?: LucideIcon;
}

/** How a button waiting for its answer looks: like a disabled one. */
export const BUSY_BUTTON = "aria-disabled:cursor-not-allowed aria-disabled:opacity-60";

/**
 * A form's submit button, which sends nothing more while its answer is awaited. Busy, it
 * is aria-disabled rather than disabled: a disabled button loses the keyboard focus (the
 * browser moves it to the page's body, out of a dialog too), and the person who pressed
 * it would have to find their place again. A click, or Enter in one of the form's fields
 * (a click on this button for the browser), is cancelled meanwhile.
 */
export function SubmitButton({
  busy,
  pendingLabel,
  icon: Icon,
  onClick,
  className,
  children,
  ...props
}: SubmitButtonProps) {
  return (
    <Button
      {...props}
      type="submit"
      aria-disabled={busy || undefined}
      className={cn(BUSY_BUTTON, className)}
      onClick={(event) => {
        if (busy) event.preventDefault();
        else onClick?.(event);
      }}
    >
      {Icon && <Icon aria-hidden="true" className="size-4" />}
      {busy ? pendingLabel : children}
    </Button>
  );
}
