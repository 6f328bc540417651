import { ChevronLeft, ChevronRight, Trash2 } from "lucide-react";
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";

/** The tabs of /admin/newsletter, chosen by `?tab=` (plain links: they work without JavaScript). */
export const NEWSLETTER_TABS = [
  { id: "subscribers", label: "Subscribers" },
  { id: "suppressions", label: "Suppression List" },
  { id: "emails", label: "Email log" },
] as const;
export type NewsletterTab = (typeof NEWSLETTER_TABS)[number]["id"];

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

export function TabLinks({ current }: { current: NewsletterTab }) {
  return (
    <nav aria-label="Newsletter sections" className="border-b border-line">
      <ul className="-mb-px flex flex-wrap gap-1">
        {NEWSLETTER_TABS.map((tab) => {
          const active = tab.id === current;
          return (
            <li key={tab.id}>
              <Link
                to={pageHref(new URLSearchParams(), { tab: tab.id === "subscribers" ? undefined : tab.id })}
                aria-current={active ? "page" : undefined}
                data-testid={`tab-${tab.id}`}
                className={`inline-block border-b-2 px-4 py-2 text-sm font-medium ${
                  active ? "border-accent text-fg" : "border-transparent text-fg-muted hover:text-fg"
                }`}
              >
                {tab.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
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

/** A destructive action behind a confirmation (a <details>: works without JavaScript). */
export function ConfirmDelete({
  intent,
  id,
  label,
  buttonLabel,
  confirmLabel,
  children,
}: {
  intent: string;
  id: string;
  /** The accessible name of the first button, e.g. "Delete ada@example.com". */
  label: string;
  buttonLabel: string;
  confirmLabel: string;
  children: ReactNode;
}) {
  return (
    <details className="inline-block text-left">
      <summary
        className={`${buttonVariants({ variant: "danger", size: "sm" })} list-none [&::-webkit-details-marker]:hidden`}
        aria-label={label}
      >
        <Trash2 aria-hidden="true" className="size-4" />
        {buttonLabel}
      </summary>
      <div className="mt-2 w-64 rounded-lg border border-line bg-surface p-3 text-left">
        <p className="text-sm text-fg">{children}</p>
        <Form method="post" className="mt-3">
          <input type="hidden" name="intent" value={intent} />
          <input type="hidden" name="id" value={id} />
          <Button type="submit" variant="danger" size="sm" className="w-full">
            <Trash2 aria-hidden="true" className="size-4" />
            {confirmLabel}
          </Button>
        </Form>
      </div>
    </details>
  );
}
