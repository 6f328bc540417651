import { LoaderCircle } from "lucide-react";

export interface SpinnerProps {
  /** What is happening, for screen readers ("Loading…", "Saving…"). */
  label?: string;
  className?: string;
}

/** A spinning indicator with an accessible name; announced politely as a status. */
export function Spinner({ label = "Loading…", className = "size-5" }: SpinnerProps) {
  return (
    <span role="status" className="inline-flex items-center">
      <LoaderCircle aria-hidden="true" className={`animate-spin text-accent motion-reduce:animate-none ${className}`} />
      <span className="sr-only">{label}</span>
    </span>
  );
}
