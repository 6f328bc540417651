import { type ComponentPropsWithoutRef, type ReactNode, useId } from "react";

const SELECT =
  "block cursor-pointer rounded-md border border-line bg-surface px-3 py-2 text-sm text-fg focus-visible:border-accent aria-invalid:border-danger";

/**
 * A native <select> (works without JavaScript) styled like the inputs; as wide as its
 * options unless a width class is given. Prefer SelectField, which labels it.
 */
export function Select({ className = "", ...props }: ComponentPropsWithoutRef<"select">) {
  return <select className={`${SELECT} ${className}`} {...props} />;
}

export interface SelectFieldProps extends Omit<ComponentPropsWithoutRef<"select">, "id"> {
  label: ReactNode;
  error?: string;
  id?: string;
}

/** A labelled select with its error tied to it. */
export function SelectField({ label, error, id, className = "", ...props }: SelectFieldProps) {
  const generated = useId();
  const selectId = id ?? generated;
  const errorId = `${selectId}-error`;
  return (
    <div className={`flex flex-col gap-1.5 ${className}`}>
      <label htmlFor={selectId} className="text-sm font-medium text-fg">
        {label}
      </label>
      <Select
        id={selectId}
        className="w-full"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...props}
      />
      {error && (
        <p id={errorId} className="text-sm text-danger">
          {error}
        </p>
      )}
    </div>
  );
}
