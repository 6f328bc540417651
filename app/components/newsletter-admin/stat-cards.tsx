import { Clock, type LucideIcon, MailX, UserCheck, UserPlus, Users } from "lucide-react";
import type { NewsletterStats } from "../../../server/newsletter/admin.ts";

const numberFormat = new Intl.NumberFormat("en-US");

export type StatCardKey = "total" | "active" | "pending" | "unsubscribed" | "newThisWeek";

const CARDS: Record<StatCardKey, { label: string; icon: LucideIcon }> = {
  total: { label: "Total Subscribers", icon: Users },
  active: { label: "Active", icon: UserCheck },
  pending: { label: "Pending", icon: Clock },
  unsubscribed: { label: "Unsubscribed", icon: MailX },
  newThisWeek: { label: "New This Week", icon: UserPlus },
};

const NEWSLETTER_CARDS: readonly StatCardKey[] = ["total", "active", "pending", "unsubscribed"];

/**
 * The counters as a description list (label → value): by default the four of
 * /admin/newsletter, whose total shows "+N new this month"; the Newsletter Settings
 * tab of /admin/home passes its own `cards`.
 */
export function NewsletterStatCards({
  stats,
  cards = NEWSLETTER_CARDS,
  showNewThisMonth = cards === NEWSLETTER_CARDS,
}: {
  stats: NewsletterStats;
  cards?: readonly StatCardKey[];
  showNewThisMonth?: boolean;
}) {
  return (
    <dl className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      {cards
        .map((key) => ({ key, ...CARDS[key] }))
        .map(({ key, label, icon: Icon }) => (
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
            {key === "total" && showNewThisMonth && (
              <dd className="mt-1 text-xs text-fg-muted" data-testid="stat-new-this-month">
                +{numberFormat.format(stats.newThisMonth)} new this month
              </dd>
            )}
          </div>
        ))}
    </dl>
  );
}
