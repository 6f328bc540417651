import { DailyBarChart, numberFormat, shortDay } from "~/components/ui/daily-bar-chart";

export interface DayViews {
  /** YYYY-MM-DD (UTC). */
  day: string;
  views: number;
}

/** Public page views per day over the dashboard's window. */
export function PageViewsChart({ days }: { days: DayViews[] }) {
  const total = days.reduce((sum, entry) => sum + entry.views, 0);
  const busiest = days.reduce<DayViews | undefined>(
    (best, entry) => (!best || entry.views > best.views ? entry : best),
    undefined,
  );
  return (
    <DailyBarChart
      days={days.map((entry) => ({ day: entry.day, value: entry.views }))}
      valueLabel="Views"
      valueUnit="views"
      summary={
        total === 0 || !busiest
          ? `No public page views in the last ${days.length} days.`
          : `${numberFormat.format(total)} public page views in the last ${days.length} days; the busiest day was ${shortDay(busiest.day)} with ${numberFormat.format(busiest.views)}.`
      }
      tableCaption={`Public page views per day, last ${days.length} days`}
      tableToggleLabel="Page views by day (table)"
      height={160}
      heightClass="h-40"
      testIds={{ chart: "page-views-chart", summary: "page-views-summary", table: "page-views-table" }}
    />
  );
}
