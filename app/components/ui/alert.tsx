import { CircleAlert, CircleCheck } from "lucide-react";
import type { ReactNode } from "react";

export interface AlertProps {
  tone: "success" | "error";
  children: ReactNode;
  className?: string;
  testId?: string;
}

/**
 * The outcome of a form, next to it. Errors are alerts (read at once), successes a
 * polite status. Rendered after a submission, so screen readers announce it.
 */
export function Alert({ tone, children, className = "", testId }: AlertProps) {
  const Icon = tone === "success" ? CircleCheck : CircleAlert;
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      data-testid={testId}
      className={`flex items-start gap-2 rounded-md border px-3 py-2 text-sm ${
        tone === "error" ? "border-danger/60 text-danger" : "border-accent/50 text-accent"
      } ${className}`}
    >
      <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <div className="min-w-0">{children}</div>
    </div>
  );
}
