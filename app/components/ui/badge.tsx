import { cva, type VariantProps } from "class-variance-authority";
import type { ComponentPropsWithoutRef } from "react";
import { cn } from "~/lib/cn";

const badgeVariants = cva("inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-xs font-medium", {
  variants: {
    tone: {
      neutral: "border-line text-fg-muted",
      success: "border-accent/50 text-accent",
      warning: "border-warning/60 text-warning",
    },
  },
  defaultVariants: { tone: "neutral" },
});

export type BadgeTone = NonNullable<VariantProps<typeof badgeVariants>["tone"]>;

/** A small label: a status, a type, "This device". */
export function Badge({ tone, className, ...props }: ComponentPropsWithoutRef<"span"> & { tone?: BadgeTone }) {
  return <span className={cn(badgeVariants({ tone }), className)} {...props} />;
}
