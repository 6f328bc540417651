import { type FieldName, type FormMetadata, getFormProps } from "@conform-to/react";
import { type ReactNode, useState } from "react";
import type { z } from "zod";
import { Button } from "~/components/ui/button";
import { Dialog, DialogClose, DialogContent, DialogFooter, DialogTrigger } from "~/components/ui/dialog";
import { type FormSchema, useSchemaForm } from "~/lib/forms";
import { FormErrorsScope, keepFocusOnVisibleControls } from "./form-errors";
import { SubmitButton } from "./submit-button";
import { useActionFetcher } from "./use-action-fetcher";

type Fields<Schema extends FormSchema> = ReturnType<typeof useSchemaForm<Schema>>[1];

export interface FormDialogProps<Schema extends FormSchema> {
  title: string;
  description?: ReactNode;
  /** Opens the dialog (wrapped in DialogTrigger); leave out to control `open` from outside. */
  trigger?: ReactNode;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  schema: Schema;
  /** The action's intent this form posts. */
  intent: string;
  /** Unique on the page: the intent plus the item's id for edit dialogs. */
  formId: string;
  defaultValue?: Record<string, unknown>;
  submitLabel: string;
  pendingLabel?: string;
  size?: "md" | "lg" | "xl";
  children: (fields: Fields<Schema>, form: FormMetadata<z.input<Schema>, string[]>) => ReactNode;
}

/**
 * A create or edit form in a modal dialog: validated as the person types (the same zod
 * schema the action re-checks), posted without a navigation, closed on success; on a
 * refusal the dialog stays open with the messages beside the fields and what was typed.
 */
export function FormDialog<Schema extends FormSchema>(props: FormDialogProps<Schema>) {
  const [ownOpen, setOwnOpen] = useState(false);
  const open = props.open ?? ownOpen;
  const setOpen = props.onOpenChange ?? setOwnOpen;
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      {props.trigger && <DialogTrigger asChild>{props.trigger}</DialogTrigger>}
      <DialogContent title={props.title} description={props.description} size={props.size}>
        {/* Mounted while open only: each opening starts from the item's current values. */}
        {open && <DialogForm {...props} onDone={() => setOpen(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function DialogForm<Schema extends FormSchema>({
  schema,
  intent,
  formId,
  defaultValue,
  submitLabel,
  pendingLabel = "Saving...",
  children,
  onDone,
}: FormDialogProps<Schema> & { onDone: () => void }) {
  const { fetcher, lastResult, busy } = useActionFetcher(intent, { onSuccess: onDone });
  const [form, fields] = useSchemaForm({ schema, id: formId, lastResult, defaultValue });
  return (
    <fetcher.Form
      method="post"
      {...getFormProps(form)}
      onFocus={keepFocusOnVisibleControls}
      className="flex flex-col gap-4"
    >
      <input type="hidden" name="intent" value={intent} />
      <FormErrorsScope form={form}>{children(fields, form)}</FormErrorsScope>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="secondary">Cancel</Button>
        </DialogClose>
        <SubmitButton busy={busy} pendingLabel={pendingLabel}>
          {submitLabel}
        </SubmitButton>
      </DialogFooter>
    </fetcher.Form>
  );
}

export interface EditItemDialogProps<Schema extends FormSchema>
  extends Omit<FormDialogProps<Schema>, "formId" | "submitLabel"> {
  /** The item edited, at the revision the dialog opens at. */
  item: { id: string; revision: number };
  submitLabel?: string;
}

/**
 * The edit dialog of one item: its form is the intent's plus the item's id, and posts
 * the id and the revision the dialog opened at, so that a save after someone else's is
 * refused (409) rather than applied over it.
 */
export function EditItemDialog<Schema extends FormSchema>({
  item,
  submitLabel = "Save changes",
  children,
  ...props
}: EditItemDialogProps<Schema>) {
  return (
    <FormDialog {...props} formId={`${props.intent}-${item.id}`} submitLabel={submitLabel}>
      {(fields, form) => (
        <>
          <input type="hidden" name="id" defaultValue={item.id} />
          <input type="hidden" name="revision" defaultValue={item.revision} />
          {children(fields, form)}
        </>
      )}
    </FormDialog>
  );
}

export type { FieldName };
