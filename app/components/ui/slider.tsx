import { Slider as SliderPrimitive } from "radix-ui";
import type { ComponentPropsWithoutRef } from "react";
import { cn } from "~/lib/cn";

/** A one-thumb slider (Radix, role="slider"): arrows step, Page Up/Down jump, Home/End go to the ends. */
export function Slider({
  className,
  thumbLabel,
  ...props
}: ComponentPropsWithoutRef<typeof SliderPrimitive.Root> & { thumbLabel?: string }) {
  return (
    <SliderPrimitive.Root
      className={cn("relative flex h-6 w-full touch-none items-center select-none", className)}
      {...props}
    >
      <SliderPrimitive.Track className="relative h-1.5 grow overflow-hidden rounded-full bg-line">
        <SliderPrimitive.Range className="absolute h-full bg-accent" />
      </SliderPrimitive.Track>
      <SliderPrimitive.Thumb
        aria-label={thumbLabel}
        className="block size-5 cursor-grab rounded-full border-2 border-accent bg-surface-raised shadow"
      />
    </SliderPrimitive.Root>
  );
}
