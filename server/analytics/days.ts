/** Calendar days in UTC as `YYYY-MM-DD`: the unit of page_views and of the dashboard chart. */

export const DAY_MS = 86_400_000;

export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The day `count` days after `day` (before it when negative). */
export function addDays(day: string, count: number): string {
  return utcDay(new Date(Date.parse(`${day}T00:00:00.000Z`) + count * DAY_MS));
}
