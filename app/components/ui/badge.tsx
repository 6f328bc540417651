import type { ComponentPropsWithoutRef } from "react";

export type BadgeTone = "neutral" | "success" | "warning";

const TONES: Record<BadgeTone, string> = {
  neutral: "border-line text-fg-muted",
  success: "border-accent/50 text-accent",
  warning: "border-warning/60 text-warning",
};

/** A small label: a status, a type, "This device". */
export function Badge({
  tone = "neutral",
  className = "",
  ...props
}: ComponentPropsWithoutRef<"span"> & { tone?: BadgeTone }) {
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-xs font-medium ${TONES[tone]} ${className}`}
      {...props}
    />
  );
}
