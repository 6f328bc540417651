import { Check, ChevronDown } from "lucide-react";
import { Select as SelectPrimitive } from "radix-ui";
import { type ComponentPropsWithoutRef, useId } from "react";
import { cn } from "~/lib/cn";
import { Label } from "./field";

export interface SelectOption {
  value: string;
  label: string;
}

export interface SelectProps extends ComponentPropsWithoutRef<typeof SelectPrimitive.Root> {
  options: readonly SelectOption[];
  id?: string;
  className?: string;
  "aria-label"?: string;
  "aria-invalid"?: boolean;
  "aria-describedby"?: string;
  placeholder?: string;
  testId?: string;
  /** Focus the trigger when it mounts (a dialog's first field). */
  autoFocus?: boolean;
}

/**
 * A list box (Radix Select): typeahead, arrow keys, Escape. With a `name` inside a form
 * it submits its value like a native select.
 */
export function Select({
  options,
  id,
  className,
  placeholder,
  testId,
  "aria-label": ariaLabel,
  "aria-invalid": ariaInvalid,
  "aria-describedby": ariaDescribedBy,
  autoFocus,
  ...props
}: SelectProps) {
  return (
    <SelectPrimitive.Root {...props}>
      <SelectPrimitive.Trigger
        id={id}
        autoFocus={autoFocus}
        aria-label={ariaLabel}
        aria-invalid={ariaInvalid}
        aria-describedby={ariaDescribedBy}
        data-testid={testId}
        className={cn(
          "flex w-full min-w-0 cursor-pointer items-center justify-between gap-2 rounded-md border border-line bg-surface px-3 py-2 text-left text-sm text-fg focus-visible:border-accent aria-invalid:border-danger disabled:cursor-not-allowed disabled:opacity-60 data-[placeholder]:text-fg-muted",
          className,
        )}
      >
        <span className="truncate">
          <SelectPrimitive.Value placeholder={placeholder} />
        </span>
        <SelectPrimitive.Icon>
          <ChevronDown aria-hidden="true" className="size-4 text-fg-muted" />
        </SelectPrimitive.Icon>
      </SelectPrimitive.Trigger>
      <SelectPrimitive.Portal>
        <SelectPrimitive.Content
          position="popper"
          sideOffset={4}
          className="z-50 max-h-[min(var(--radix-select-content-available-height),20rem)] min-w-[var(--radix-select-trigger-width)] overflow-hidden rounded-md border border-line bg-surface-raised shadow-xl"
        >
          <SelectPrimitive.Viewport className="p-1">
            {options.map((option) => (
              <SelectPrimitive.Item
                key={option.value}
                value={option.value}
                className="relative flex cursor-pointer items-center rounded-sm py-1.5 pr-8 pl-2 text-sm text-fg outline-none select-none data-[highlighted]:bg-surface data-[highlighted]:text-accent"
              >
                <SelectPrimitive.ItemText>{option.label}</SelectPrimitive.ItemText>
                <SelectPrimitive.ItemIndicator className="absolute right-2 inline-flex">
                  <Check aria-hidden="true" className="size-4 text-accent" />
                </SelectPrimitive.ItemIndicator>
              </SelectPrimitive.Item>
            ))}
          </SelectPrimitive.Viewport>
        </SelectPrimitive.Content>
      </SelectPrimitive.Portal>
    </SelectPrimitive.Root>
  );
}

export interface SelectFieldProps extends Omit<SelectProps, "id"> {
  label: string;
  id?: string;
}

/** A labelled Select, for forms that are not Conform forms (filters). */
export function SelectField({ label, id, className, ...props }: SelectFieldProps) {
  const generated = useId();
  const selectId = id ?? generated;
  return (
    <div className={cn("flex flex-col gap-1.5", className)}>
      <Label htmlFor={selectId}>{label}</Label>
      <Select id={selectId} {...props} />
    </div>
  );
}
