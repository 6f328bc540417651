import { type FieldMetadata, getInputProps } from "@conform-to/react";
import type { ReactNode } from "react";
import { describedBy, FieldMessages, Input, Label } from "~/components/ui/field";
import { cn } from "~/lib/cn";

/**
 * A password input of a Conform form, laid out like InputField (label, control, hint,
 * errors tied by aria-describedby). `autoComplete` tells password managers whether it
 * is the current password or a new one.
 */
export function PasswordField({
  meta,
  label,
  hint,
  autoComplete,
  className,
}: {
  meta: FieldMetadata<string | undefined, Record<string, unknown>, string[]>;
  label: ReactNode;
  hint?: ReactNode;
  autoComplete: "current-password" | "new-password";
  className?: string;
}) {
  const { key, ...inputProps } = getInputProps(meta, { type: "password" });
  const ids = { hintId: meta.descriptionId, errorId: meta.errorId };
  const invalid = Boolean(meta.errors?.length);
  return (
    <div className={cn("flex min-w-0 flex-col gap-1.5", className)}>
      <Label htmlFor={meta.id}>{label}</Label>
      <Input key={key} {...inputProps} autoComplete={autoComplete} aria-describedby={describedBy(ids, hint, invalid)} />
      <FieldMessages {...ids} hint={hint} errors={meta.errors} />
    </div>
  );
}
