import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "~/lib/cn";

/** The one empty state of the admin's lists: an icon, the spec's text, and what to do next. */
export function EmptyState({
  icon: Icon,
  children,
  action,
  className,
  testId = "empty-state",
}: {
  icon: LucideIcon;
  children: ReactNode;
  action?: ReactNode;
  className?: string;
  testId?: string;
}) {
  return (
    <div
      data-testid={testId}
      className={cn(
        "flex flex-col items-center gap-3 rounded-lg border border-dashed border-line px-4 py-10 text-center",
        className,
      )}
    >
      <Icon aria-hidden="true" className="size-8 text-fg-muted" />
      <p className="text-sm text-fg-muted">{children}</p>
      {action}
    </div>
  );
}
