import { Images } from "lucide-react";
import { type ReactNode, useEffect, useState } from "react";
import { Button } from "~/components/ui/button";
import { Dialog, DialogClose, DialogContent, DialogFooter, DialogTrigger } from "~/components/ui/dialog";
import { EmptyState } from "~/components/ui/empty-state";
import { RadioCard, RadioGroup } from "~/components/ui/radio-group";
import { Spinner } from "~/components/ui/spinner";
import type { MediaLibraryItem } from "../../../server/media/media-item.ts";
import { imageName, thumbnailOf } from "./media-details";

/**
 * Picks an image of the media library: its images as a group of radio cards (arrow
 * keys move the choice), read from GET /api/media each time the dialog opens, so that
 * images uploaded meanwhile are there.
 */
export function MediaPickerDialog({
  trigger,
  onPick,
}: {
  trigger: ReactNode;
  onPick: (image: MediaLibraryItem) => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent title="Choose from the media library" size="lg">
        {open && (
          <MediaChoices
            onPick={(image) => {
              onPick(image);
              setOpen(false);
            }}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

type Library = { state: "loading" } | { state: "failed" } | { state: "loaded"; images: MediaLibraryItem[] };

function useLibrary(): Library {
  const [library, setLibrary] = useState<Library>({ state: "loading" });
  useEffect(() => {
    const controller = new AbortController();
    fetch("/api/media", { headers: { Accept: "application/json" }, signal: controller.signal })
      .then(async (response) => {
        if (!response.ok) throw new Error(`GET /api/media answered ${response.status}`);
        const body = (await response.json()) as { media: MediaLibraryItem[] };
        setLibrary({ state: "loaded", images: body.media });
      })
      .catch(() => {
        if (!controller.signal.aborted) setLibrary({ state: "failed" });
      });
    return () => controller.abort();
  }, []);
  return library;
}

function MediaChoices({ onPick }: { onPick: (image: MediaLibraryItem) => void }) {
  const library = useLibrary();
  const [chosenId, setChosenId] = useState("");
  if (library.state === "loading") {
    return (
      <p className="flex items-center gap-2 py-6 text-sm text-fg-muted">
        <Spinner label="Loading images…" /> Loading images…
      </p>
    );
  }
  if (library.state === "failed") {
    return (
      <p role="alert" className="py-6 text-sm text-danger">
        The media library could not be loaded. Close this dialog and try again.
      </p>
    );
  }
  const { images } = library;
  const chosen = images.find((image) => image.id === chosenId);
  return (
    <>
      {images.length === 0 ? (
        <EmptyState icon={Images}>No images yet. Upload one with the Upload image button.</EmptyState>
      ) : (
        <RadioGroup
          aria-label="Images"
          value={chosenId}
          onValueChange={setChosenId}
          className="grid-cols-2 sm:grid-cols-3"
          data-testid="media-choices"
        >
          {images.map((image) => {
            const thumbnail = thumbnailOf(image);
            return (
              <RadioCard key={image.id} value={image.id}>
                <span className="flex aspect-[4/3] min-h-0 items-center justify-center overflow-hidden bg-surface-raised p-1">
                  <img
                    src={thumbnail.url}
                    width={thumbnail.width}
                    height={thumbnail.height}
                    alt=""
                    loading="lazy"
                    className="h-auto max-h-full w-auto max-w-full object-contain"
                  />
                </span>
                {/* The card's name: what the image shows, else its file name. */}
                <span className="px-2 py-1.5 text-xs">
                  <span className="line-clamp-2 break-words">{image.alt || imageName(image)}</span>
                </span>
              </RadioCard>
            );
          })}
        </RadioGroup>
      )}
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="secondary">Cancel</Button>
        </DialogClose>
        <Button disabled={!chosen} onClick={() => chosen && onPick(chosen)}>
          Use image
        </Button>
      </DialogFooter>
    </>
  );
}
