import { Menu, X } from "lucide-react";
import { AdminNav } from "./admin-nav";
import { useDetails } from "./use-details";

/**
 * The sidebar on small screens: a <details> whose panel slides in below the header,
 * so it opens and closes without JavaScript (its toggle stays visible in the header).
 * With JavaScript it also closes on a link click, on Escape and on a click outside.
 */
export function AdminDrawer() {
  const { close, detailsProps } = useDetails();
  return (
    <details id="admin-drawer" className="group md:hidden" {...detailsProps}>
      <summary
        data-testid="admin-drawer-toggle"
        className="flex size-10 cursor-pointer list-none items-center justify-center rounded-md text-fg hover:bg-surface-raised [&::-webkit-details-marker]:hidden"
      >
        <Menu aria-hidden="true" className="size-6 group-open:hidden" />
        <X aria-hidden="true" className="hidden size-6 group-open:block" />
        <span className="sr-only">Admin menu</span>
      </summary>
      {/* A click on the dimmed page closes the drawer (it counts as outside it). */}
      <div data-details-outside="" aria-hidden="true" className="fixed inset-x-0 top-16 bottom-0 z-40 bg-black/60" />
      <div
        data-testid="admin-drawer"
        className="fixed top-16 bottom-0 left-0 z-50 w-72 max-w-[85vw] overflow-y-auto border-r border-line bg-surface p-4 shadow-xl"
      >
        <AdminNav label="Admin menu" testId="admin-drawer-nav" onLinkClick={close} />
      </div>
    </details>
  );
}
