import { BookOpen, Eye, Library, type LucideIcon, Newspaper } from "lucide-react";

export interface DashboardCounters {
  chaptersPublished: number;
  postsPublished: number;
  resourcesAdded: number;
  pageViewsThisWeek: number;
}

const CARDS: Array<{ key: keyof DashboardCounters; label: string; icon: LucideIcon }> = [
  { key: "chaptersPublished", label: "Chapters published", icon: BookOpen },
  { key: "postsPublished", label: "Posts published", icon: Newspaper },
  { key: "resourcesAdded", label: "Resources added", icon: Library },
  { key: "pageViewsThisWeek", label: "Page views this week", icon: Eye },
];

const numberFormat = new Intl.NumberFormat("en-US");

/** The dashboard's four counters, as a description list (label → value). */
export function StatCards({ counters }: { counters: DashboardCounters }) {
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
            {numberFormat.format(counters[key])}
          </dd>
        </div>
      ))}
    </dl>
  );
}
