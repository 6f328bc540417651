import { ImageIcon, Upload } from "lucide-react";
import { type ChangeEvent, type DragEvent, type ReactNode, useEffect, useId, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { toast } from "sonner";
import { buttonVariants } from "~/components/ui/button";
import { Progress } from "~/components/ui/progress";
import { cn } from "~/lib/cn";
import { UPLOAD_FAILED_MESSAGE } from "../../../server/media/rules.ts";
import { ACCEPT_IMAGES, refusalOf, type StoredImage, type UploadStep, uploadImage } from "./media-api";
import { reasonOf, toastUploadFailure } from "./upload-feedback";

/** How long the full bar stays before the control is ready again. */
const RESET_DELAY_MS = 600;

export interface ImageUploadProps {
  /**
   * The image shown while nothing is being uploaded (the section's image, the last
   * upload): the preview goes back to it when an upload fails.
   */
  current: { url: string; alt: string } | null;
  onUploaded: (image: StoredImage) => void;
  /** The file input's label. */
  label?: string;
  /** Other ways to choose an image, shown beside the upload button (e.g. "Choose from library"). */
  actions?: ReactNode;
  className?: string;
}

/**
 * Picks an image (or takes one dropped on it), checks its type and size in the browser
 * with the spec's texts, then sends it to POST /api/media showing the spec's progress
 * steps (0, 50, 100, then the bar goes), and a preview of the chosen file meanwhile.
 * The file input itself takes the focus (visually hidden, its label looks like a button),
 * so Tab reaches it and Enter or Space opens the file chooser.
 */
export function ImageUpload({ current, onUploaded, label = "Upload image", actions, className }: ImageUploadProps) {
  const inputId = useId();
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const [step, setStep] = useState<UploadStep | null>(null);
  const [chosen, setChosen] = useState<{ url: string; name: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const resetTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(resetTimer.current), []);

  const uploading = chosen !== null;

  async function send(file: File) {
    const refusal = refusalOf(file);
    if (refusal) {
      setError(refusal);
      toastUploadFailure(refusal);
      return;
    }
    clearTimeout(resetTimer.current);
    setError(null);
    const preview = { url: URL.createObjectURL(file), name: file.name };
    setChosen(preview);
    try {
      // Each step is drawn before the next arrives, even when the events come in one burst.
      const image = await uploadImage(file, (next) => flushSync(() => setStep(next)));
      toast.success(image.message);
      onUploaded(image);
    } catch (failure) {
      const reason = reasonOf(failure);
      setError(reason ?? UPLOAD_FAILED_MESSAGE);
      toastUploadFailure(reason);
    } finally {
      URL.revokeObjectURL(preview.url);
      setChosen(null);
      resetTimer.current = setTimeout(() => setStep(null), RESET_DELAY_MS);
    }
  }

  function onChange(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // Cleared, so that choosing the same file again is a change too.
    event.target.value = "";
    if (file) void send(file);
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file && !uploading) void send(file);
  }

  const shown = chosen ? { url: chosen.url, alt: `Preview of ${chosen.name}` } : current;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: dropping a file is a pointer shortcut; the file input inside is the way for everyone.
    <div
      data-testid="image-upload"
      data-dragging={dragging || undefined}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(event) => {
        // Moving over the zone's own children is not leaving it.
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={onDrop}
      className={cn(
        "flex flex-col gap-4 rounded-lg border border-dashed border-line p-4 sm:flex-row sm:items-center data-[dragging]:border-accent data-[dragging]:bg-accent/5",
        className,
      )}
    >
      <div className="flex h-28 w-full shrink-0 items-center justify-center overflow-hidden rounded-md border border-line bg-surface sm:w-36">
        {shown ? (
          <img data-testid="upload-preview" src={shown.url} alt={shown.alt} className="size-full object-contain" />
        ) : (
          <ImageIcon aria-hidden="true" className="size-8 text-fg-muted" />
        )}
      </div>
      <div className="flex min-w-0 flex-1 flex-col items-start gap-2">
        <div className="flex flex-wrap gap-2">
          <input
            id={inputId}
            type="file"
            accept={ACCEPT_IMAGES}
            disabled={uploading}
            onChange={onChange}
            aria-describedby={error ? `${hintId} ${errorId}` : hintId}
            aria-invalid={error ? true : undefined}
            data-testid="upload-input"
            className="peer sr-only"
          />

          <label
            htmlFor={inputId}
            className={cn(
              buttonVariants({ variant: "secondary" }),
              "peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-accent peer-disabled:cursor-not-allowed peer-disabled:opacity-60",
            )}
          >
            <Upload aria-hidden="true" className="size-4" />
            {uploading ? "Uploading..." : label}
          </label>
          {actions}
        </div>
        <p id={hintId} className="text-xs text-fg-muted">
          JPG, PNG, WebP or GIF, up to 5 MB. You can also drop an image here.
        </p>
        {step !== null && <Progress value={step} label="Upload progress" testId="upload-progress" />}
        {error && (
          <p id={errorId} className="text-sm text-danger" data-testid="upload-error">
            {error}
          </p>
        )}
      </div>
    </div>
  );
}
