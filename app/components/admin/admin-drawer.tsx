import { Menu, X } from "lucide-react";
import { Dialog as DialogPrimitive } from "radix-ui";
import { useState } from "react";
import { AdminNav } from "./admin-nav";

/**
 * The sidebar on small screens: a modal drawer from the left (Radix Dialog), opened
 * from the header; a link, Escape, the close button or a click outside closes it, and
 * focus returns to the toggle.
 */
export function AdminDrawer() {
  const [open, setOpen] = useState(false);
  return (
    <DialogPrimitive.Root open={open} onOpenChange={setOpen}>
      <DialogPrimitive.Trigger
        data-testid="admin-drawer-toggle"
        className="flex size-10 cursor-pointer items-center justify-center rounded-md text-fg hover:bg-surface-raised md:hidden"
      >
        <Menu aria-hidden="true" className="size-6" />
        <span className="sr-only">Admin menu</span>
      </DialogPrimitive.Trigger>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-black/60 md:hidden" />
        <DialogPrimitive.Content
          data-testid="admin-drawer"
          aria-describedby={undefined}
          className="fixed top-0 bottom-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col gap-4 overflow-y-auto border-r border-line bg-surface p-4 shadow-xl outline-none md:hidden"
        >
          <div className="flex items-center justify-between">
            <DialogPrimitive.Title className="text-lg font-semibold text-fg">Admin menu</DialogPrimitive.Title>
            <DialogPrimitive.Close className="flex size-10 cursor-pointer items-center justify-center rounded-md text-fg hover:bg-surface-raised">
              <X aria-hidden="true" className="size-6" />
              <span className="sr-only">Close menu</span>
            </DialogPrimitive.Close>
          </div>
          <AdminNav label="Admin menu" testId="admin-drawer-nav" onLinkClick={() => setOpen(false)} />
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
