import { Link } from "react-router";
import { cn } from "~/lib/cn";

export interface FilterOption {
  /** The URL parameter's value; "" for the option that shows everything. */
  value: string;
  label: string;
}

export interface FilterLinksProps {
  /** Names the group for assistive technology ("Filter by category"). */
  label: string;
  /** The URL parameter the options set (`?category=AWS`). */
  param: string;
  options: readonly FilterOption[];
  /** The value shown now ("" for everything). */
  current: string;
  testId?: string;
}

/**
 * A list filtered by one URL parameter, as a row of links (wrapping on phones): the
 * filter is in the address, so it survives a reload and can be shared, and each
 * option is one click or one Enter away. The current option is marked aria-current.
 */
export function FilterLinks({ label, param, options, current, testId }: FilterLinksProps) {
  return (
    <nav aria-label={label} data-testid={testId}>
      <ul className="flex flex-wrap gap-2">
        {options.map((option) => {
          const active = option.value === current;
          return (
            <li key={option.value}>
              <Link
                to={{ search: option.value ? `?${new URLSearchParams({ [param]: option.value })}` : "" }}
                preventScrollReset
                aria-current={active ? "page" : undefined}
                className={cn(
                  "inline-flex items-center rounded-full border px-3 py-1.5 text-sm font-medium transition-colors",
                  active
                    ? "border-accent bg-accent text-on-accent"
                    : "border-line text-fg-muted hover:border-accent hover:text-fg",
                )}
              >
                {option.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
