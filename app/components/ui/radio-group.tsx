import { RadioGroup as RadioGroupPrimitive } from "radix-ui";
import type { ComponentPropsWithoutRef } from "react";
import { cn } from "~/lib/cn";

/**
 * One choice among several shown as cards (Radix RadioGroup): Tab enters the group at
 * the chosen card, the arrow keys move the choice, Space chooses the focused card.
 */
export function RadioGroup({ className, ...props }: ComponentPropsWithoutRef<typeof RadioGroupPrimitive.Root>) {
  return <RadioGroupPrimitive.Root className={cn("grid gap-3", className)} {...props} />;
}

/** A card of a RadioGroup: its content is its label (give an image its alt text). */
export function RadioCard({ className, ...props }: ComponentPropsWithoutRef<typeof RadioGroupPrimitive.Item>) {
  return (
    <RadioGroupPrimitive.Item
      className={cn(
        "flex cursor-pointer flex-col overflow-hidden rounded-lg border border-line bg-surface text-left text-sm text-fg hover:border-accent data-[state=checked]:border-accent data-[state=checked]:ring-2 data-[state=checked]:ring-accent",
        className,
      )}
      {...props}
    />
  );
}
