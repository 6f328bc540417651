export interface DayViews {
  /** YYYY-MM-DD (UTC). */
  day: string;
  views: number;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "2024-03-05" → "Mar 5", the same on the server and in every browser (no locale, no time zone). */
export function shortDay(day: string): string {
  const [, month, date] = day.split("-");
  return `${MONTHS[Number(month) - 1] ?? month} ${Number(date)}`;
}

const numberFormat = new Intl.NumberFormat("en-US");

const WIDTH = 600;
const HEIGHT = 160;

/**
 * Public page views per day as server-rendered SVG bars (no client JavaScript). The
 * picture is decorative for assistive technology: the caption sums it up and the table
 * below (a disclosure, open without JavaScript too) holds every value.
 */
export function PageViewsChart({ days }: { days: DayViews[] }) {
  const total = days.reduce((sum, entry) => sum + entry.views, 0);
  const max = Math.max(0, ...days.map((entry) => entry.views));
  const busiest = days.reduce<DayViews | undefined>(
    (best, entry) => (!best || entry.views > best.views ? entry : best),
    undefined,
  );
  const slot = WIDTH / Math.max(days.length, 1);
  const barWidth = slot * 0.75;
  const first = days[0];
  const last = days.at(-1);

  return (
    <figure data-testid="page-views-chart" className="flex flex-col gap-3">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        aria-hidden="true"
        focusable="false"
        className="h-40 w-full"
      >
        <line x1="0" y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} className="stroke-line" strokeWidth="1" />
        {days.map((entry, index) => {
          const height = max === 0 ? 0 : Math.max(2, (entry.views / max) * (HEIGHT - 8));
          return (
            <rect
              key={entry.day}
              data-day={entry.day}
              data-views={entry.views}
              x={index * slot + (slot - barWidth) / 2}
              y={HEIGHT - height}
              width={barWidth}
              height={height}
              rx="2"
              className="fill-accent"
            >
              <title>{`${shortDay(entry.day)}: ${numberFormat.format(entry.views)} views`}</title>
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
      <figcaption data-testid="page-views-summary" className="text-sm text-fg-muted">
        {total === 0 || !busiest
          ? `No public page views in the last ${days.length} days.`
          : `${numberFormat.format(total)} public page views in the last ${days.length} days; the busiest day was ${shortDay(busiest.day)} with ${numberFormat.format(busiest.views)}.`}
      </figcaption>
      <details className="text-sm">
        <summary className="cursor-pointer rounded-sm font-medium text-accent hover:underline">
          Page views by day (table)
        </summary>
        <div className="mt-3 max-h-72 overflow-y-auto rounded-md border border-line">
          <table data-testid="page-views-table" className="w-full text-left text-sm">
            <caption className="sr-only">Public page views per day, last {days.length} days</caption>
            <thead className="sticky top-0 bg-surface-raised">
              <tr>
                <th scope="col" className="px-3 py-2 font-semibold text-fg">
                  Day
                </th>
                <th scope="col" className="px-3 py-2 text-right font-semibold text-fg">
                  Views
                </th>
              </tr>
            </thead>
            <tbody>
              {days.map((entry) => (
                <tr key={entry.day} className="border-t border-line">
                  <th scope="row" className="px-3 py-1.5 font-normal text-fg-muted">
                    <time dateTime={entry.day}>{shortDay(entry.day)}</time>
                  </th>
                  <td className="px-3 py-1.5 text-right text-fg tabular-nums">{numberFormat.format(entry.views)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
