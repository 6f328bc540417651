import type { VariantProps } from "class-variance-authority";
import { Slot } from "radix-ui";
import type { ComponentPropsWithoutRef } from "react";
import { cn } from "~/lib/cn";
import { buttonVariants } from "./button-variants";

export { buttonVariants };

export type ButtonVariant = NonNullable<VariantProps<typeof buttonVariants>["variant"]>;
export type ButtonSize = NonNullable<VariantProps<typeof buttonVariants>["size"]>;

export interface ButtonProps extends ComponentPropsWithoutRef<"button">, VariantProps<typeof buttonVariants> {
  /** Renders the child element (a link, a Radix trigger's child) with the button's look. */
  asChild?: boolean;
}

/** A button; type="button" unless told otherwise, so it never submits a form by accident. */
export function Button({ variant, size, className, asChild = false, type = "button", ...props }: ButtonProps) {
  if (asChild) return <Slot.Root className={cn(buttonVariants({ variant, size }), className)} {...props} />;
  return <button type={type} className={cn(buttonVariants({ variant, size }), className)} {...props} />;
}
