import { Trash2 } from "lucide-react";
import type { ReactNode } from "react";
import { IconButton } from "~/components/ui/icon-button";
import { ConfirmAction } from "./confirm-action";

export interface DeleteItemButtonProps {
  /** The item's name: the button is "Delete {name}", the confirmation asks "Delete {name}?". */
  name: string;
  /** What will happen; end it with the fact that it cannot be undone. */
  description: ReactNode;
  /** The action's intent, and the fields that name the item (its id). */
  intent: string;
  fields: Record<string, string>;
  /** The confirmation's button (default: Delete). */
  confirmLabel?: string;
  "data-testid"?: string;
}

/** The trash-can button of one item in a list, which deletes it after ConfirmAction's confirmation. */
export function DeleteItemButton({
  name,
  confirmLabel = "Delete",
  "data-testid": testId,
  ...props
}: DeleteItemButtonProps) {
  return (
    <ConfirmAction
      trigger={
        <IconButton
          icon={Trash2}
          label={`Delete ${name}`}
          className="text-danger hover:text-danger"
          data-testid={testId}
        />
      }
      title={`Delete ${name}?`}
      confirmLabel={confirmLabel}
      {...props}
    />
  );
}
