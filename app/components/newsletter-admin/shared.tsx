import { ChevronLeft, ChevronRight } from "lucide-react";
import { Link } from "react-router";
import { buttonVariants } from "~/components/ui/button";

const DATE = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
const DATE_TIME = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: "UTC",
});

/** `MMM d, yyyy` in UTC (the same on the server and in the browser). */
export function formatDate(iso: string | null | undefined): string {
  return iso ? DATE.format(new Date(iso)) : "—";
}

/** `MMM d, yyyy, HH:mm UTC`. */
export function formatDateTime(iso: string | null | undefined): string {
  return iso ? `${DATE_TIME.format(new Date(iso))} UTC` : "—";
}

/** The URL of this page with some query parameters changed (empty values removed). */
export function pageHref(search: URLSearchParams, changes: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams(search);
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined || value === "") params.delete(key);
    else params.set(key, String(value));
  }
  const query = params.toString();
  return query ? `?${query}` : "?";
}

export function Pagination({
  page,
  pageCount,
  total,
  search,
  noun,
}: {
  page: number;
  pageCount: number;
  total: number;
  search: URLSearchParams;
  noun: string;
}) {
  if (pageCount <= 1) {
    return (
      <p className="text-sm text-fg-muted" data-testid="pagination-summary">
        {total} {noun}
      </p>
    );
  }
  return (
    <nav aria-label="Pagination" className="flex flex-wrap items-center justify-between gap-3 text-sm">
      <p className="text-fg-muted" data-testid="pagination-summary">
        Page {page} of {pageCount} · {total} {noun}
      </p>
      <div className="flex gap-2">
        {page > 1 ? (
          <Link
            to={pageHref(search, { page: page - 1 })}
            className={buttonVariants({ variant: "secondary", size: "sm" })}
            rel="prev"
          >
            <ChevronLeft aria-hidden="true" className="size-4" />
            Previous
          </Link>
        ) : null}
        {page < pageCount ? (
          <Link
            to={pageHref(search, { page: page + 1 })}
            className={buttonVariants({ variant: "secondary", size: "sm" })}
            rel="next"
          >
            Next
            <ChevronRight aria-hidden="true" className="size-4" />
          </Link>
        ) : null}
      </div>
    </nav>
  );
}
