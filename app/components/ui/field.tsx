import { type ComponentPropsWithoutRef, type ReactNode, useId } from "react";

const INPUT =
  "block w-full rounded-md border border-line bg-surface px-3 py-2 text-sm text-fg placeholder:text-fg-muted focus-visible:border-accent aria-invalid:border-danger";

/** A text input styled like the rest of the forms. Prefer TextField, which labels it. */
export function Input({ className = "", ...props }: ComponentPropsWithoutRef<"input">) {
  return <input className={`${INPUT} ${className}`} {...props} />;
}

export interface TextFieldProps extends Omit<ComponentPropsWithoutRef<"input">, "id"> {
  label: ReactNode;
  /** Help shown under the input and read with it. */
  hint?: ReactNode;
  /** The field's error: marks the input invalid and is read with it. */
  error?: string;
  id?: string;
}

/** A labelled input with its hint and error tied to it (aria-describedby, aria-invalid). */
export function TextField({ label, hint, error, id, className = "", ...props }: TextFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`flex flex-col gap-1.5 ${className}`}>
      <label htmlFor={inputId} className="text-sm font-medium text-fg">
        {label}
      </label>
      <Input id={inputId} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...props} />
      {hint && (
        <p id={hintId} className="text-xs text-fg-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm text-danger">
          {error}
        </p>
      )}
    </div>
  );
}
