import { shortDay } from "~/components/admin/dashboard/page-views-chart";

export interface DayActive {
  /** YYYY-MM-DD (UTC). */
  day: string;
  active: number;
}

const numberFormat = new Intl.NumberFormat("en-US");
const WIDTH = 600;
const HEIGHT = 120;

/**
 * Active subscribers at the end of each day, as server-rendered SVG bars. The picture
 * is decorative for assistive technology: the caption sums it up and the table (a
 * disclosure, which works without JavaScript) holds every value.
 */
export function ActiveSubscribersChart({ days }: { days: DayActive[] }) {
  const max = Math.max(0, ...days.map((entry) => entry.active));
  const slot = WIDTH / Math.max(days.length, 1);
  const barWidth = slot * 0.75;
  const first = days[0];
  const last = days.at(-1);
  return (
    <figure data-testid="active-subscribers-chart" className="flex flex-col gap-3">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        aria-hidden="true"
        focusable="false"
        className="h-28 w-full"
      >
        <line x1="0" y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} className="stroke-line" strokeWidth="1" />
        {days.map((entry, index) => {
          const height = max === 0 ? 0 : Math.max(2, (entry.active / max) * (HEIGHT - 8));
          return (
            <rect
              key={entry.day}
              x={index * slot + (slot - barWidth) / 2}
              y={HEIGHT - height}
              width={barWidth}
              height={height}
              rx="2"
              className="fill-accent"
            >
              <title>{`${shortDay(entry.day)}: ${numberFormat.format(entry.active)} active`}</title>
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
      <figcaption data-testid="active-subscribers-summary" className="text-sm text-fg-muted">
        {first && last
          ? `Active subscribers over the last ${days.length} days: ${numberFormat.format(first.active)} on ${shortDay(first.day)}, ${numberFormat.format(last.active)} on ${shortDay(last.day)}.`
          : "No data."}
      </figcaption>
      <details className="text-sm">
        <summary className="cursor-pointer rounded-sm font-medium text-accent hover:underline">
          Active subscribers by day (table)
        </summary>
        <div className="mt-3 max-h-72 overflow-y-auto rounded-md border border-line">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Active subscribers at the end of each day</caption>
            <thead className="sticky top-0 bg-surface-raised">
              <tr>
                <th scope="col" className="px-3 py-2 font-semibold text-fg">
                  Day
                </th>
                <th scope="col" className="px-3 py-2 text-right font-semibold text-fg">
                  Active
                </th>
              </tr>
            </thead>
            <tbody>
              {days.map((entry) => (
                <tr key={entry.day} className="border-t border-line">
                  <th scope="row" className="px-3 py-1.5 font-normal text-fg-muted">
                    <time dateTime={entry.day}>{shortDay(entry.day)}</time>
                  </th>
                  <td className="px-3 py-1.5 text-right text-fg tabular-nums">{numberFormat.format(entry.active)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
