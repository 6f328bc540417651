import { X } from "lucide-react";

/**
 * An image section. The image links to the full-size file, which is all it does without
 * JavaScript; with it (app/enhancements/public-page.js), a click opens the lightbox of
 * the template below as a modal dialog, closed by Escape or any click.
 */
export function ImageFigure({ src, caption }: { src: string; caption: string | null }) {
  const alt = caption ?? "Chapter illustration";
  return (
    <figure data-testid="image-figure" className="my-6">
      <a
        href={src}
        data-lightbox
        data-testid="image-link"
        className="block overflow-hidden rounded-lg border border-line bg-surface-raised"
      >
        <img src={src} alt={alt} loading="lazy" decoding="async" className="mx-auto max-h-[32rem] w-auto" />
        <span className="sr-only"> (open full size)</span>
      </a>
      {caption && <figcaption className="mt-2 text-center text-sm text-fg-muted">{caption}</figcaption>}
      <template data-lightbox-template>
        <dialog
          aria-label={alt}
          data-testid="lightbox"
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
      </template>
    </figure>
  );
}
