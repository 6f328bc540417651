import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Button, type ButtonProps } from "~/components/ui/button";

export interface SubmitButtonProps extends Omit<ButtonProps, "type" | "asChild"> {
  /** Whether the form's answer is awaited: the button is disabled and says so. */
  busy: boolean;
  /** Shown instead of the children while busy ("Saving..."). */
  pendingLabel: ReactNode;
  /** An icon before the label. */
  icon?: LucideIcon;
}

/** A form's submit button, disabled while its answer is awaited so that a second click sends nothing. */
export function SubmitButton({ busy, pendingLabel, icon: Icon, disabled, children, ...props }: SubmitButtonProps) {
  return (
    <Button {...props} type="submit" disabled={disabled || busy}>
      {Icon && <Icon aria-hidden="true" className="size-4" />}
      {busy ? pendingLabel : children}
    </Button>
  );
}
