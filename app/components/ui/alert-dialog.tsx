import { AlertDialog as AlertDialogPrimitive } from "radix-ui";
import type { ReactNode } from "react";
import { cn } from "~/lib/cn";
import { buttonVariants } from "./button";
import { OVERLAY, PANEL } from "./dialog";

/**
 * A confirmation that interrupts (Radix AlertDialog): it is not closed by a click
 * outside, and focus starts on Cancel so that Enter never destroys anything by accident.
 */
export const AlertDialog = AlertDialogPrimitive.Root;
export const AlertDialogTrigger = AlertDialogPrimitive.Trigger;

export interface AlertDialogContentProps {
  title: ReactNode;
  description: ReactNode;
  /** The confirming control, e.g. a submit button of a form (wrap it in AlertDialogAction to close on click). */
  action: ReactNode;
  cancelLabel?: string;
}

export function AlertDialogContent({ title, description, action, cancelLabel = "Cancel" }: AlertDialogContentProps) {
  return (
    <AlertDialogPrimitive.Portal>
      <AlertDialogPrimitive.Overlay className={OVERLAY} />
      <AlertDialogPrimitive.Content className={cn(PANEL, "sm:max-w-md")}>
        <AlertDialogPrimitive.Title className="text-lg font-semibold tracking-tight text-fg">
          {title}
        </AlertDialogPrimitive.Title>
        <AlertDialogPrimitive.Description className="text-sm text-fg-muted">
          {description}
        </AlertDialogPrimitive.Description>
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <AlertDialogPrimitive.Cancel className={buttonVariants({ variant: "secondary" })}>
            {cancelLabel}
          </AlertDialogPrimitive.Cancel>
          {action}
        </div>
      </AlertDialogPrimitive.Content>
    </AlertDialogPrimitive.Portal>
  );
}

export const AlertDialogAction = AlertDialogPrimitive.Action;
