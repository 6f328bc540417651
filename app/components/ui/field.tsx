import { Label as LabelPrimitive } from "radix-ui";
import { type ComponentPropsWithoutRef, type ReactNode, useId } from "react";
import { cn } from "~/lib/cn";
import { CONTROL } from "./control-classes";

/** A text input styled like the rest of the forms. Prefer a field component, which labels it. */
export function Input({ className, ...props }: ComponentPropsWithoutRef<"input">) {
  return <input className={cn(CONTROL, className)} {...props} />;
}

export function Textarea({ className, ...props }: ComponentPropsWithoutRef<"textarea">) {
  return <textarea className={cn(CONTROL, "resize-y leading-relaxed", className)} {...props} />;
}

export function Label({ className, ...props }: ComponentPropsWithoutRef<typeof LabelPrimitive.Root>) {
  return <LabelPrimitive.Root className={cn("text-sm font-medium text-fg", className)} {...props} />;
}

/** A field's messages under its control: the hint (always) and the errors (when invalid). */
export function FieldMessages({
  hintId,
  hint,
  errorId,
  errors,
}: {
  hintId: string;
  hint?: ReactNode;
  errorId: string;
  errors?: readonly string[];
}) {
  return (
    <>
      {hint && (
        <p id={hintId} className="text-xs text-fg-muted">
          {hint}
        </p>
      )}
      {errors && errors.length > 0 && (
        <p id={errorId} className="text-sm text-danger" data-testid="field-error">
          {errors.join(" ")}
        </p>
      )}
    </>
  );
}

/** The ids that tie a control to its hint and its errors (aria-describedby). */
export function describedBy(ids: { hintId: string; errorId: string }, hint: unknown, invalid: boolean) {
  return [hint ? ids.hintId : null, invalid ? ids.errorId : null].filter(Boolean).join(" ") || undefined;
}

export interface TextFieldProps extends Omit<ComponentPropsWithoutRef<"input">, "id"> {
  label: ReactNode;
  /** Help shown under the input and read with it. */
  hint?: ReactNode;
  /** The field's error: marks the input invalid and is read with it. */
  error?: string;
  id?: string;
}

/**
 * A labelled input with its hint and error tied to it, for forms that are not Conform
 * forms (the sign-in pages, which work without JavaScript). Admin forms use the fields
 * of app/components/forms/fields.tsx.
 */
export function TextField({ label, hint, error, id, className, ...props }: TextFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const ids = { hintId: `${inputId}-hint`, errorId: `${inputId}-error` };
  return (
    <div className={cn("flex flex-col gap-1.5", className)}>
      <Label htmlFor={inputId}>{label}</Label>
      <Input
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(ids, hint, Boolean(error))}
        {...props}
      />
      <FieldMessages {...ids} hint={hint} errors={error ? [error] : undefined} />
    </div>
  );
}
