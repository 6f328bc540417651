import { X } from "lucide-react";
import { type MouseEvent, useEffect, useRef, useState } from "react";

/**
 * An image section. The image links to the full-size file, which is all it does without
 * JavaScript; with it, a click opens a modal lightbox, closed by Escape or any click.
 */
export function ImageFigure({ src, caption }: { src: string; caption: string | null }) {
  const [open, setOpen] = useState(false);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const triggerRef = useRef<HTMLAnchorElement>(null);
  const alt = caption ?? "Chapter illustration";

  useEffect(() => {
    const dialog = dialogRef.current;
    if (open && dialog && !dialog.open) dialog.showModal();
  }, [open]);

  function openLightbox(event: MouseEvent<HTMLAnchorElement>) {
    // Let modified clicks open the file in a new tab as usual.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    setOpen(true);
  }

  function close() {
    dialogRef.current?.close();
  }

  return (
    <figure data-testid="image-figure" className="my-6">
      <a
        ref={triggerRef}
        href={src}
        onClick={openLightbox}
        data-testid="image-link"
        className="block overflow-hidden rounded-lg border border-line bg-surface-raised"
      >
        <img src={src} alt={alt} loading="lazy" decoding="async" className="mx-auto max-h-[32rem] w-auto" />
        <span className="sr-only"> (open full size)</span>
      </a>
      {caption && <figcaption className="mt-2 text-center text-sm text-fg-muted">{caption}</figcaption>}
      {open && (
        // The dialog closes on Escape natively (the cancel event, then close).
        // biome-ignore lint/a11y/useKeyWithClickEvents: Escape closes it; the close button is the keyboard path.
        <dialog
          ref={dialogRef}
          aria-label={alt}
          data-testid="lightbox"
          onClick={close}
          onClose={() => {
            setOpen(false);
            triggerRef.current?.focus();
          }}
          className="m-auto max-h-none max-w-none cursor-zoom-out bg-transparent p-0 backdrop:bg-black/85"
        >
          <div className="flex max-h-dvh max-w-[100vw] flex-col items-center gap-3 p-4">
            <img src={src} alt={alt} className="max-h-[85dvh] max-w-full rounded-md object-contain" />
            {caption && <p className="text-center text-sm text-white">{caption}</p>}
            <button
              type="button"
              className="inline-flex cursor-pointer items-center gap-1.5 rounded-md bg-white px-3 py-1.5 text-sm font-semibold text-black"
            >
              <X aria-hidden="true" className="size-4" />
              Close
            </button>
          </div>
        </dialog>
      )}
    </figure>
  );
}
