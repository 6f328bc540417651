import { BookOpen, Eye, Library, type LucideIcon, Newspaper } from "lucide-react";
import { StatCard, StatGrid } from "~/components/ui/stat-card";

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

/** The dashboard's four counters, as a description list (label → value). */
export function StatCards({ counters }: { counters: DashboardCounters }) {
  return (
    <StatGrid>
      {CARDS.map(({ key, label, icon }) => (
        <StatCard key={key} id={key} label={label} icon={icon} value={counters[key]} />
      ))}
    </StatGrid>
  );
}
