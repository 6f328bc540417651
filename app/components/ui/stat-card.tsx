import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";

/** Counts as the stat cards show them: 10,000. */
export const numberFormat = new Intl.NumberFormat("en-US");

/** One counter of a stat grid: a <dt>/<dd> pair (label → value) inside a <dl>, with an optional note below. */
export function StatCard(props: { id: string; label: string; icon: LucideIcon; value: number; note?: ReactNode }) {
  const { id, label, icon: Icon } = props;
  return (
    <div
      data-testid={`stat-${id}`}
      className="flex flex-col rounded-lg border border-line bg-surface-raised p-5 shadow-sm"
    >
      <dt className="flex items-center justify-between gap-2 text-sm font-medium text-fg-muted">
        {label}
        <Icon aria-hidden="true" className="size-4 text-accent" />
      </dt>
      <dd data-testid={`stat-${id}-value`} className="mt-2 text-3xl font-bold text-fg tabular-nums">
        {numberFormat.format(props.value)}
      </dd>
      {props.note}
    </div>
  );
}

/** The grid of stat cards. */
export function StatGrid({ children }: { children: ReactNode }) {
  return <dl className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">{children}</dl>;
}
