import { type ReactNode, useEffect, useRef, useState } from "react";
import { AlertDialog, AlertDialogContent, AlertDialogTrigger } from "~/components/ui/alert-dialog";
import { Button } from "~/components/ui/button";
import { BUSY_BUTTON } from "./submit-button";
import { useActionFetcher } from "./use-action-fetcher";

export interface ConfirmActionProps {
  /** Opens the confirmation; leave out to control `open` from outside (e.g. from a menu item). */
  trigger?: ReactNode;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  title: string;
  /** What will happen; end it with the fact that it cannot be undone. */
  description: ReactNode;
  confirmLabel: string;
  pendingLabel?: string;
  /** The action's intent, and the fields posted with it (the item's id, say). */
  intent: string;
  fields: Record<string, string>;
}

/**
 * The one delete confirmation of the admin: an alert dialog whose confirm button posts
 * the intent to its own route's action, whose client action shows the answer's toast.
 * It stays open (button busy) until the answer.
 */
export function ConfirmAction({
  trigger,
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  pendingLabel = "Deleting...",
  intent,
  fields,
}: ConfirmActionProps) {
  const [ownOpen, setOwnOpen] = useState(false);
  const isOpen = open ?? ownOpen;
  const setOpen = onOpenChange ?? setOwnOpen;
  const sent = useRef(false);
  const { fetcher, busy } = useActionFetcher(intent, { onSuccess: () => setOpen(false) });
  // A delete takes its own trigger away, and with it the focus the dialog gave back:
  // a keyboard user then goes on from the page's main region rather than from nowhere.
  // Whether it was sent, not whether its success was seen: the answer and the list
  // without the item may arrive in one render, which unmounts this before onSuccess runs.
  useEffect(
    () => () => {
      if (sent.current && document.activeElement === document.body) document.getElementById("main")?.focus();
    },
    [],
  );
  return (
    <AlertDialog open={isOpen} onOpenChange={setOpen}>
      {trigger && <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger>}
      <AlertDialogContent
        title={title}
        description={description}
        action={
          <Button
            variant="danger"
            // aria-disabled, not disabled: the button keeps the focus while its answer is
            // awaited, so that a refusal leaves the focus in the dialog, where it was.
            aria-disabled={busy || undefined}
            className={BUSY_BUTTON}
            data-testid="confirm-action"
            onClick={() => {
              if (busy) return;
              sent.current = true;
              fetcher.submit({ intent, ...fields }, { method: "post" });
            }}
          >
            {busy ? pendingLabel : confirmLabel}
          </Button>
        }
      />
    </AlertDialog>
  );
}
