import { cva, type VariantProps } from "class-variance-authority";
import { Slot } from "radix-ui";
import type { ComponentPropsWithoutRef } from "react";
import { cn } from "~/lib/cn";

export const buttonVariants = cva(
  "inline-flex cursor-pointer items-center justify-center gap-2 rounded-md font-semibold whitespace-nowrap transition-colors disabled:cursor-not-allowed disabled:opacity-60 [&_svg]:shrink-0",
  {
    variants: {
      variant: {
        primary: "bg-accent text-on-accent hover:bg-accent-strong",
        secondary: "border border-line bg-surface text-fg hover:bg-surface-raised",
        danger: "border border-danger/60 text-danger hover:bg-danger/10",
        ghost: "text-fg-muted hover:bg-surface-raised hover:text-fg",
      },
      size: {
        sm: "px-3 py-1.5 text-sm",
        md: "px-4 py-2 text-sm",
        /** A square button holding one icon; give it an accessible name (aria-label or sr-only text). */
        icon: "size-9 p-0",
      },
    },
    defaultVariants: { variant: "primary", size: "md" },
  },
);

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
