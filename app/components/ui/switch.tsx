import { Switch as SwitchPrimitive } from "radix-ui";
import type { ComponentPropsWithoutRef } from "react";
import { cn } from "~/lib/cn";

/** An on/off switch (Radix, role="switch"); inside a form with a name it submits "on" when on. */
export function Switch({ className, ...props }: ComponentPropsWithoutRef<typeof SwitchPrimitive.Root>) {
  return (
    <SwitchPrimitive.Root
      className={cn(
        "inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full border border-line bg-surface p-0.5 transition-colors data-[state=checked]:border-accent data-[state=checked]:bg-accent disabled:cursor-not-allowed disabled:opacity-60",
        className,
      )}
      {...props}
    >
      <SwitchPrimitive.Thumb className="block size-[1.125rem] rounded-full bg-fg-muted shadow transition-transform data-[state=checked]:translate-x-5 data-[state=checked]:bg-on-accent" />
    </SwitchPrimitive.Root>
  );
}
