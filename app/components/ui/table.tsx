import type { ComponentPropsWithoutRef, ReactNode } from "react";
import { cn } from "~/lib/cn";

/**
 * The one table of the admin. On wide screens a table; below the `sm` breakpoint each
 * row becomes a card whose cells are labelled by their column (from `label`), so that
 * nothing scrolls sideways on a phone and every action stays in reach.
 */

export function Table({ className, ...props }: ComponentPropsWithoutRef<"table">) {
  return <table className={cn("w-full text-left text-sm max-sm:block", className)} {...props} />;
}

/** The header row; an "Actions" column is named for screen readers only. Hidden on phones (cells carry labels). */
export function TableHead({ columns }: { columns: readonly string[] }) {
  return (
    <thead className="border-b border-line text-fg-muted max-sm:sr-only">
      <tr>
        {columns.map((column) => (
          <th key={column} scope="col" className="py-2 pr-4 font-medium last:pr-0">
            {column === "Actions" ? <span className="sr-only">Actions</span> : column}
          </th>
        ))}
      </tr>
    </thead>
  );
}

export function TableBody({ className, ...props }: ComponentPropsWithoutRef<"tbody">) {
  return <tbody className={cn("max-sm:flex max-sm:flex-col max-sm:gap-3", className)} {...props} />;
}

export function TableRow({ className, ...props }: ComponentPropsWithoutRef<"tr">) {
  return (
    <tr
      className={cn(
        "border-b border-line last:border-0 max-sm:flex max-sm:flex-col max-sm:gap-1.5 max-sm:rounded-lg max-sm:border max-sm:p-3 max-sm:last:border",
        className,
      )}
      {...props}
    />
  );
}

export interface TableCellProps extends ComponentPropsWithoutRef<"td"> {
  /** The column's name, shown before the value on phones (leave out for the actions cell). */
  label?: string;
  children?: ReactNode;
}

export function TableCell({ label, className, children, ...props }: TableCellProps) {
  return (
    <td className={cn("py-3 pr-4 align-middle last:pr-0 max-sm:flex max-sm:gap-2 max-sm:p-0", className)} {...props}>
      {label && (
        <span aria-hidden="true" className="w-24 shrink-0 font-medium text-fg-muted sm:hidden">
          {label}
        </span>
      )}
      <span className="min-w-0 max-sm:flex-1 max-sm:wrap-anywhere">{children}</span>
    </td>
  );
}

/** The row's action buttons: at the end of the row, wrapping under the values on phones. */
export function TableActions({ children }: { children: ReactNode }) {
  return (
    <td className="py-3 text-right align-middle max-sm:pt-1 max-sm:pb-0">
      <div className="flex flex-wrap items-center justify-end gap-1 max-sm:justify-start">{children}</div>
    </td>
  );
}
