import type { ReactNode } from "react";
import { PageTitle } from "~/components/site/page-title";

/**
 * The top of an admin screen: its title, one line on what it manages, and the
 * screen's main action (an "Add …" button) beside them, or under them on phones, so
 * that it is the first control after the heading.
 */
export function PageHeader({
  title,
  description,
  action,
}: {
  title: string;
  description: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <div className="min-w-0">
        <PageTitle>{title}</PageTitle>
        <p className="mt-2 text-fg-muted">{description}</p>
      </div>
      {action}
    </div>
  );
}
