import { Pencil } from "lucide-react";
import { Link } from "react-router";
import { formatDate } from "~/components/newsletter-admin/shared";
import { Card } from "~/components/ui/card";
import { IconButton } from "~/components/ui/icon-button";
import type { MediaLibraryItem } from "../../../server/media/media-item.ts";
import { AltTextDialog } from "./alt-text-dialog";
import { CopyUrlButton } from "./copy-url-button";
import { DeleteImageAction } from "./delete-image-action";
import { chapterSectionsHref, chaptersUsing, formatBytes, imageName, thumbnailOf } from "./media-details";

/** One image of the library: its thumbnail, size, dimensions, date, alt text and the chapters using it, with its actions. */
export function MediaCard({ image }: { image: MediaLibraryItem }) {
  const name = imageName(image);
  const thumbnail = thumbnailOf(image);
  const chapters = chaptersUsing(image.usage);
  return (
    <Card data-testid="media-card" className="flex h-full flex-col overflow-hidden">
      <div className="flex aspect-[4/3] min-h-0 items-center justify-center overflow-hidden border-b border-line bg-surface p-2">
        <img
          src={thumbnail.url}
          width={thumbnail.width}
          height={thumbnail.height}
          alt={image.alt ?? ""}
          loading="lazy"
          decoding="async"
          data-testid="media-thumbnail"
          className="h-auto max-h-full w-auto max-w-full object-contain"
        />
      </div>
      <div className="flex flex-1 flex-col gap-3 p-4">
        <h3 className="truncate font-semibold text-fg" title={name}>
          {name}
        </h3>
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
          <dt className="text-fg-muted">Size</dt>
          <dd className="text-fg tabular-nums">{formatBytes(image.bytes)}</dd>
          <dt className="text-fg-muted">Dimensions</dt>
          <dd className="text-fg tabular-nums">
            {image.width} × {image.height}
          </dd>
          <dt className="text-fg-muted">Uploaded</dt>
          <dd className="text-fg">
            <time dateTime={image.createdAt}>{formatDate(image.createdAt)}</time>
          </dd>
          <dt className="text-fg-muted">Alt text</dt>
          <dd className="break-words text-fg" data-testid="media-alt">
            {image.alt ?? <span className="text-fg-muted">None</span>}
          </dd>
          <dt className="text-fg-muted">Used in</dt>
          <dd data-testid="media-usage">
            {chapters.length === 0 ? (
              <span className="text-fg-muted">No chapter</span>
            ) : (
              <ul className="flex flex-col gap-0.5">
                {chapters.map((chapter) => (
                  <li key={chapter.chapterId}>
                    <Link
                      to={chapterSectionsHref(chapter.chapterId)}
                      className="break-words text-accent underline underline-offset-2 hover:text-accent-strong"
                    >
                      {chapter.chapterTitle}
                    </Link>
                    {chapter.sections > 1 && <span className="text-fg-muted"> ({chapter.sections} sections)</span>}
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </dl>
        <div className="mt-auto flex justify-end gap-1 border-t border-line pt-3">
          <CopyUrlButton url={image.url} name={name} />
          <AltTextDialog image={image} trigger={<IconButton icon={Pencil} label={`Edit alt text of ${name}`} />} />
          <DeleteImageAction image={image} />
        </div>
      </div>
    </Card>
  );
}
