import { type FieldMetadata, getInputProps, getTextareaProps, useInputControl } from "@conform-to/react";
import type { ComponentPropsWithoutRef, ReactNode } from "react";
import { Input, Label, Textarea } from "~/components/ui/field";
import { Select, type SelectOption } from "~/components/ui/select";
import { Slider } from "~/components/ui/slider";
import { Switch } from "~/components/ui/switch";
import { cn } from "~/lib/cn";
import { useShownField } from "./form-errors";

/**
 * The fields of the admin's Conform forms: a label, the control, an optional hint and
 * the field's errors, tied together for assistive technology (aria-describedby,
 * aria-invalid). Every admin form is built from these.
 */

type Meta = FieldMetadata<unknown, Record<string, unknown>, string[]>;

/** Conform's control of a custom input, which works on the field's value as form text. */
function useTextControl(meta: Meta) {
  return useInputControl(meta as FieldMetadata<string, Record<string, unknown>, string[]>);
}

interface FieldFrameProps {
  meta: Meta;
  label: ReactNode;
  hint?: ReactNode;
  className?: string;
  children: ReactNode;
  /** Label after the control, on one row (switches). */
  inline?: boolean;
}

function FieldFrame({ meta, label, hint, className, children, inline = false }: FieldFrameProps) {
  useShownField(meta.name);
  const errors = meta.errors ?? [];
  return (
    <div className={cn("flex min-w-0 flex-col gap-1.5", className)}>
      {inline ? (
        <div className="flex items-center gap-3">
          {children}
          <Label htmlFor={meta.id}>{label}</Label>
        </div>
      ) : (
        <>
          <Label htmlFor={meta.id}>{label}</Label>
          {children}
        </>
      )}
      {hint && (
        <div id={meta.descriptionId} className="text-xs text-fg-muted">
          {hint}
        </div>
      )}
      {errors.length > 0 && (
        <p id={meta.errorId} className="text-sm text-danger" data-testid="field-error">
          {errors.join(" ")}
        </p>
      )}
    </div>
  );
}

/** aria-describedby for a field: its hint, and its errors when it has some. */
function describedBy(meta: Meta, hint: unknown): string | undefined {
  return (
    [hint ? meta.descriptionId : null, meta.errors?.length ? meta.errorId : null].filter(Boolean).join(" ") || undefined
  );
}

type InputType = "text" | "url" | "email" | "number" | "search" | "date" | "password";

export interface InputFieldProps extends Omit<ComponentPropsWithoutRef<"input">, "type" | "defaultValue" | "name"> {
  meta: Meta;
  label: ReactNode;
  hint?: ReactNode;
  type?: InputType;
}

export function InputField({ meta, label, hint, type = "text", className, ...props }: InputFieldProps) {
  const { key, ...inputProps } = getInputProps(meta, { type });
  return (
    <FieldFrame meta={meta} label={label} hint={hint} className={className}>
      <Input key={key} {...inputProps} aria-describedby={describedBy(meta, hint)} {...props} />
    </FieldFrame>
  );
}

export interface TextareaFieldProps extends Omit<ComponentPropsWithoutRef<"textarea">, "defaultValue" | "name"> {
  meta: Meta;
  label: ReactNode;
  hint?: ReactNode;
}

export function TextareaField({ meta, label, hint, className, ...props }: TextareaFieldProps) {
  const { key, ...textareaProps } = getTextareaProps(meta);
  return (
    <FieldFrame meta={meta} label={label} hint={hint} className={className}>
      <Textarea key={key} {...textareaProps} aria-describedby={describedBy(meta, hint)} {...props} />
    </FieldFrame>
  );
}

/** A boolean field: submits "on" when on, nothing when off (zod: z.boolean().default(false)). */
export function SwitchField({
  meta,
  label,
  hint,
  className,
}: {
  meta: Meta;
  label: ReactNode;
  hint?: ReactNode;
  className?: string;
}) {
  const control = useTextControl(meta);
  return (
    <FieldFrame meta={meta} label={label} hint={hint} className={className} inline>
      <Switch
        id={meta.id}
        checked={control.value === "on" || control.value === "true"}
        onCheckedChange={(checked) => control.change(checked ? "on" : "")}
        onBlur={control.blur}
        aria-invalid={meta.errors?.length ? true : undefined}
        aria-describedby={describedBy(meta, hint)}
      />
    </FieldFrame>
  );
}

export function SelectField({
  meta,
  label,
  hint,
  options,
  className,
  autoFocus,
}: {
  meta: Meta;
  label: ReactNode;
  hint?: ReactNode;
  options: readonly SelectOption[];
  className?: string;
  autoFocus?: boolean;
}) {
  const control = useTextControl(meta);
  return (
    <FieldFrame meta={meta} label={label} hint={hint} className={className}>
      <Select
        id={meta.id}
        autoFocus={autoFocus}
        options={options}
        value={typeof control.value === "string" ? control.value : undefined}
        onValueChange={(value) => control.change(value)}
        onOpenChange={(open) => {
          if (!open) control.blur();
        }}
        aria-invalid={meta.errors?.length ? true : undefined}
        aria-describedby={describedBy(meta, hint)}
      />
    </FieldFrame>
  );
}

/** A number picked on a slider, its value shown beside the label (e.g. "50%"). */
export function SliderField({
  meta,
  label,
  min,
  max,
  step,
  format = String,
  className,
}: {
  meta: Meta;
  label: string;
  min: number;
  max: number;
  step: number;
  format?: (value: number) => string;
  className?: string;
}) {
  useShownField(meta.name);
  const control = useTextControl(meta);
  const value = Number(control.value ?? min);
  return (
    <div className={cn("flex flex-col gap-2", className)}>
      <div className="flex items-center justify-between gap-2">
        <span id={`${meta.id}-label`} className="text-sm font-medium text-fg">
          {label}
        </span>
        <output htmlFor={meta.id} className="text-sm font-semibold text-accent tabular-nums">
          {format(value)}
        </output>
      </div>
      <Slider
        id={meta.id}
        min={min}
        max={max}
        step={step}
        value={[value]}
        onValueChange={([next]) => control.change(String(next))}
        onValueCommit={() => control.blur()}
        aria-labelledby={`${meta.id}-label`}
        thumbLabel={label}
      />
      {meta.errors && meta.errors.length > 0 && (
        <p id={meta.errorId} className="text-sm text-danger" data-testid="field-error">
          {meta.errors.join(" ")}
        </p>
      )}
    </div>
  );
}
