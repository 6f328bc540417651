import { X } from "lucide-react";
import type { ReaderSection } from "../../../server/content/reader.ts";

type ImageSection = Extract<ReaderSection, { type: "image" }>;

/** The reader's column is at most 48rem wide; below that it spans the screen less the page's padding. */
const SIZES = "(min-width: 52rem) 48rem, calc(100vw - 2rem)";

/**
 * An image section. The image links to the full-size file, which is all it does without
 * JavaScript; with it (app/enhancements/public-page.js), a click opens the lightbox of
 * the figure's template as a modal dialog, closed by Escape or any click. Images of our
 * media library come with their dimensions (no layout shift while they load) and
 * srcsets of the variants made at upload, WebP first.
 */
export function ImageFigure({ image }: { image: ImageSection }) {
  const { src, caption, alt, responsive, eager } = image;
  return (
    <figure data-testid="image-figure" className="my-6">
      {/* First, not last: a figure's figcaption must be its first or last child. */}
      <template data-lightbox-template>
        <dialog
          aria-label={alt}
          data-testid="lightbox"
          className="m-auto max-h-none max-w-none cursor-zoom-out bg-transparent p-0 backdrop:bg-black/85"
        >
          <div className="flex max-h-dvh max-w-[100vw] flex-col items-center gap-3 p-4">
            <picture>
              {responsive?.webpSrcSet && <source type="image/webp" srcSet={responsive.webpSrcSet} sizes="100vw" />}
              <img
                src={src}
                srcSet={responsive?.srcSet}
                sizes={responsive ? "100vw" : undefined}
                alt={alt}
                className="max-h-[85dvh] max-w-full rounded-md object-contain"
              />
            </picture>
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
      <a
        href={src}
        data-lightbox
        data-testid="image-link"
        className="block overflow-hidden rounded-lg border border-line bg-surface-raised"
      >
        {responsive ? (
          <picture>
            {responsive.webpSrcSet && <source type="image/webp" srcSet={responsive.webpSrcSet} sizes={SIZES} />}
            <img
              src={src}
              srcSet={responsive.srcSet}
              sizes={SIZES}
              width={responsive.width}
              height={responsive.height}
              alt={alt}
              loading={eager ? "eager" : "lazy"}
              fetchPriority={eager ? "high" : undefined}
              decoding="async"
              // Full column width up to the image's own, height from its ratio, before it loads.
              style={{ maxWidth: `min(100%, ${responsive.width}px)` }}
              className="mx-auto block h-auto max-h-[32rem] w-full object-contain"
            />
          </picture>
        ) : (
          <img src={src} alt={alt} loading="lazy" decoding="async" className="mx-auto max-h-[32rem] w-auto" />
        )}
        <span className="sr-only"> (open full size)</span>
      </a>
      {caption && <figcaption className="mt-2 text-center text-sm text-fg-muted">{caption}</figcaption>}
    </figure>
  );
}
