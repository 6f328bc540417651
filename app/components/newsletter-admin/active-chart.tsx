import { DailyBarChart, numberFormat, shortDay } from "~/components/ui/daily-bar-chart";

export interface DayActive {
  /** YYYY-MM-DD (UTC). */
  day: string;
  active: number;
}

/** Active subscribers at the end of each day. */
export function ActiveSubscribersChart({ days }: { days: DayActive[] }) {
  const first = days[0];
  const last = days.at(-1);
  return (
    <DailyBarChart
      days={days.map((entry) => ({ day: entry.day, value: entry.active }))}
      valueLabel="Active"
      valueUnit="active"
      summary={
        first && last
          ? `Active subscribers over the last ${days.length} days: ${numberFormat.format(first.active)} on ${shortDay(first.day)}, ${numberFormat.format(last.active)} on ${shortDay(last.day)}.`
          : "No data."
      }
      tableCaption="Active subscribers at the end of each day"
      tableToggleLabel="Active subscribers by day (table)"
      height={120}
      heightClass="h-28"
      testIds={{
        chart: "active-subscribers-chart",
        summary: "active-subscribers-summary",
        table: "active-subscribers-table",
      }}
    />
  );
}
