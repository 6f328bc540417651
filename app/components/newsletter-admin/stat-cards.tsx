import { Clock, type LucideIcon, MailX, UserCheck, Users } from "lucide-react";
import type { NewsletterStats } from "../../../server/newsletter/admin.ts";

const numberFormat = new Intl.NumberFormat("en-US");

const CARDS: Array<{ key: "total" | "active" | "pending" | "unsubscribed"; label: string; icon: LucideIcon }> = [
  { key: "total", label: "Total Subscribers", icon: Users },
  { key: "active", label: "Active", icon: UserCheck },
  { key: "pending", label: "Pending", icon: Clock },
  { key: "unsubscribed", label: "Unsubscribed", icon: MailX },
];

/** The four counters of /admin/newsletter, as a description list (label → value). */
export function NewsletterStatCards({ stats }: { stats: NewsletterStats }) {
  return (
    <dl className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      {CARDS.map(({ key, label, icon: Icon }) => (
        <div
          key={key}
          data-testid={`stat-${key}`}
          className="flex flex-col rounded-lg border border-line bg-surface-raised p-5 shadow-sm"
        >
          <dt className="flex items-center justify-between gap-2 text-sm font-medium text-fg-muted">
            {label}
            <Icon aria-hidden="true" className="size-4 text-accent" />
          </dt>
          <dd data-testid={`stat-${key}-value`} className="mt-2 text-3xl font-bold text-fg tabular-nums">
            {numberFormat.format(stats[key])}
          </dd>
          {key === "total" && (
            <dd className="mt-1 text-xs text-fg-muted" data-testid="stat-new-this-month">
              +{numberFormat.format(stats.newThisMonth)} new this month
            </dd>
          )}
        </div>
      ))}
    </dl>
  );
}
