import { cva } from "class-variance-authority";

/**
 * The looks of a button, for <button>s and links alike. Kept apart from Button (which
 * merges classes with tailwind-merge and renders Radix's Slot) so that the hydrated
 * public pages can use it without shipping either.
 */
export const buttonVariants = cva(
  "inline-flex cursor-pointer items-center justify-center gap-2 rounded-md font-semibold whitespace-nowrap transition-colors disabled:cursor-not-allowed disabled:opacity-60 [&_svg]:shrink-0",
  {
    variants: {
      variant: {
        primary: "bg-accent text-on-accent hover:bg-accent-strong",
        secondary: "border border-line bg-surface text-fg hover:bg-surface-raised",
        danger: "border border-danger/60 text-danger hover:bg-danger/10",
        ghost: "text-fg-muted hover:bg-surface-raised hover:text-fg",
      },
      size: {
        sm: "px-3 py-1.5 text-sm",
        md: "px-4 py-2 text-sm",
        /** The home page's call to action. */
        lg: "px-5 py-3 text-base",
        /** A square button holding one icon; give it an accessible name (aria-label or sr-only text). */
        icon: "size-9 p-0",
      },
    },
    defaultVariants: { variant: "primary", size: "md" },
  },
);
