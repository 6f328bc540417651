import type { ReactNode } from "react";

/** One value per UTC day. */
export interface DailyValue {
  /** YYYY-MM-DD (UTC). */
  day: string;
  value: number;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "2024-03-05" → "Mar 5", the same on the server and in every browser (no locale, no time zone). */
export function shortDay(day: string): string {
  const [, month, date] = day.split("-");
  return `${MONTHS[Number(month) - 1] ?? month} ${Number(date)}`;
}

export const numberFormat = new Intl.NumberFormat("en-US");

const WIDTH = 600;

export interface DailyBarChartProps {
  days: DailyValue[];
  /** Heading of the value column and the word after each bar's value ("Views", "views"). */
  valueLabel: string;
  valueUnit: string;
  /** One sentence that sums the chart up for everyone, assistive technology included. */
  summary: ReactNode;
  tableCaption: string;
  tableToggleLabel: string;
  /** SVG viewBox height and its Tailwind height class. */
  height: number;
  heightClass: string;
  testIds: { chart: string; summary: string; table: string };
}

/**
 * Daily values as server-rendered SVG bars (no client JavaScript). The picture is
 * decorative for assistive technology: the caption sums it up and the table below (a
 * disclosure, open without JavaScript too) holds every value.
 */
export function DailyBarChart(props: DailyBarChartProps) {
  const { days, height: HEIGHT } = props;
  const max = Math.max(0, ...days.map((entry) => entry.value));
  const slot = WIDTH / Math.max(days.length, 1);
  const barWidth = slot * 0.75;
  const first = days[0];
  const last = days.at(-1);

  return (
    <figure data-testid={props.testIds.chart} className="flex flex-col gap-3">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        aria-hidden="true"
        focusable="false"
        className={`${props.heightClass} w-full`}
      >
        <line x1="0" y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} className="stroke-line" strokeWidth="1" />
        {days.map((entry, index) => {
          const height = max === 0 ? 0 : Math.max(2, (entry.value / max) * (HEIGHT - 8));
          return (
            <rect
              key={entry.day}
              data-day={entry.day}
              data-value={entry.value}
              x={index * slot + (slot - barWidth) / 2}
              y={HEIGHT - height}
              width={barWidth}
              height={height}
              rx="2"
              className="fill-accent"
            >
              <title>{`${shortDay(entry.day)}: ${numberFormat.format(entry.value)} ${props.valueUnit}`}</title>
            </rect>
          );
        })}
      </svg>
      {first && last && (
        <div aria-hidden="true" className="flex justify-between text-xs text-fg-muted">
          <span>{shortDay(first.day)}</span>
          <span>{shortDay(last.day)}</span>
        </div>
      )}
      <figcaption data-testid={props.testIds.summary} className="text-sm text-fg-muted">
        {props.summary}
      </figcaption>
      <details className="text-sm">
        <summary className="cursor-pointer rounded-sm font-medium text-accent hover:underline">
          {props.tableToggleLabel}
        </summary>
        <div className="mt-3 max-h-72 overflow-y-auto rounded-md border border-line">
          <table data-testid={props.testIds.table} className="w-full text-left text-sm">
            <caption className="sr-only">{props.tableCaption}</caption>
            <thead className="sticky top-0 bg-surface-raised">
              <tr>
                <th scope="col" className="px-3 py-2 font-semibold text-fg">
                  Day
                </th>
                <th scope="col" className="px-3 py-2 text-right font-semibold text-fg">
                  {props.valueLabel}
                </th>
              </tr>
            </thead>
            <tbody>
              {days.map((entry) => (
                <tr key={entry.day} className="border-t border-line">
                  <th scope="row" className="px-3 py-1.5 font-normal text-fg-muted">
                    <time dateTime={entry.day}>{shortDay(entry.day)}</time>
                  </th>
                  <td className="px-3 py-1.5 text-right text-fg tabular-nums">{numberFormat.format(entry.value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
