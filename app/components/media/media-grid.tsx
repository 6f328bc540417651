import { Images } from "lucide-react";
import { EmptyState } from "~/components/ui/empty-state";
import type { MediaLibraryItem } from "../../../server/media/media-item.ts";
import { MediaCard } from "./media-card";

/** The library as cards, newest first, or its empty state. */
export function MediaGrid({ images }: { images: MediaLibraryItem[] }) {
  if (images.length === 0) {
    return <EmptyState icon={Images}>No images yet. Upload one above, or in a chapter's image section.</EmptyState>;
  }
  return (
    <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 2xl:grid-cols-4" data-testid="media-grid">
      {images.map((image) => (
        <li key={image.id}>
          <MediaCard image={image} />
        </li>
      ))}
    </ul>
  );
}
