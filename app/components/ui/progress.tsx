import { Progress as ProgressPrimitive } from "radix-ui";
import { cn } from "~/lib/cn";

export interface ProgressProps {
  /** 0 to 100. */
  value: number;
  /** What is progressing ("Uploading photo.jpg"): the bar's accessible name. */
  label: string;
  className?: string;
  testId?: string;
}

/** A progress bar (Radix Progress: role="progressbar" with aria-valuenow, min 0, max 100). */
export function Progress({ value, label, className, testId }: ProgressProps) {
  return (
    <ProgressPrimitive.Root
      value={value}
      max={100}
      aria-label={label}
      data-testid={testId}
      className={cn("relative h-2 w-full overflow-hidden rounded-full bg-line", className)}
    >
      <ProgressPrimitive.Indicator
        className="h-full w-full bg-accent transition-transform duration-300 motion-reduce:transition-none"
        style={{ transform: `translateX(-${100 - value}%)` }}
      />
    </ProgressPrimitive.Root>
  );
}
