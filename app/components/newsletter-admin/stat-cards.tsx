import { Clock, type LucideIcon, MailX, UserCheck, UserPlus, Users } from "lucide-react";
import { numberFormat, StatCard, StatGrid } from "~/components/ui/stat-card";
import type { NewsletterStats } from "../../../server/newsletter/admin.ts";

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
    <StatGrid>
      {cards.map((key) => (
        <StatCard
          key={key}
          id={key}
          label={CARDS[key].label}
          icon={CARDS[key].icon}
          value={stats[key]}
          note={
            key === "total" &&
            showNewThisMonth && (
              <dd className="mt-1 text-xs text-fg-muted" data-testid="stat-new-this-month">
                +{numberFormat.format(stats.newThisMonth)} new this month
              </dd>
            )
          }
        />
      ))}
    </StatGrid>
  );
}
