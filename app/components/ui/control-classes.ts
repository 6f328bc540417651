/**
 * The look of text inputs and text areas. Apart from field.tsx (Radix's Label and
 * tailwind-merge) so that public pages can style a plain input without shipping them.
 */
export const CONTROL =
  "block w-full min-w-0 rounded-md border border-line bg-surface px-3 py-2 text-sm text-fg placeholder:text-fg-muted focus-visible:border-accent aria-invalid:border-danger disabled:cursor-not-allowed disabled:opacity-60";
