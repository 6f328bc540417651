import { Download } from "lucide-react";
import { type KeyboardEvent, useId, useState } from "react";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { FieldMessages, Input, Label } from "~/components/ui/field";
import { UPLOAD_FAILED_MESSAGE } from "../../../server/media/rules.ts";
import { importImage, type StoredImage } from "./media-api";
import { reasonOf, toastUploadFailure } from "./upload-feedback";

/** A path or address on this site: used as it is, since nothing needs copying. */
function ownImagePath(value: string): string | null {
  if (value.startsWith("/") && !value.startsWith("//")) return value;
  const url = URL.canParse(value) ? new URL(value) : null;
  return url && url.origin === window.location.origin ? `${url.pathname}${url.search}` : null;
}

/**
 * A pasted image address, as a field of another form (forms cannot nest, so it sends
 * itself): an image of another site is imported (POST /api/media/import: the server
 * fetches it once into the media library), so readers never load it from a third party.
 */
export function ImportUrlField({
  onImported,
  alt,
}: {
  onImported: (image: Pick<StoredImage, "url" | "alt">) => void;
  /** Sent with an import, for the library's copy. */
  alt?: string;
}) {
  const inputId = useId();
  const ids = { hintId: `${inputId}-hint`, errorId: `${inputId}-error` };
  const [address, setAddress] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function use() {
    const value = address.trim();
    if (!value) return setError("Please enter an image URL.");
    const own = ownImagePath(value);
    setError(null);
    if (own) {
      onImported({ url: own, alt: null });
      return setAddress("");
    }
    setBusy(true);
    try {
      const image = await importImage(value, alt);
      toast.success(image.message);
      onImported(image);
      setAddress("");
    } catch (failure) {
      const reason = reasonOf(failure);
      setError(reason ?? UPLOAD_FAILED_MESSAGE);
      toastUploadFailure(reason);
    } finally {
      setBusy(false);
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    // Enter imports instead of submitting the surrounding form.
    if (event.key !== "Enter") return;
    event.preventDefault();
    void use();
  }

  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <Label htmlFor={inputId}>Or paste an image URL</Label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          id={inputId}
          type="url"
          value={address}
          placeholder="https://"
          onChange={(event) => setAddress(event.target.value)}
          onKeyDown={onKeyDown}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${ids.hintId} ${ids.errorId}` : ids.hintId}
        />
        <Button variant="secondary" disabled={busy} onClick={() => void use()} className="shrink-0">
          <Download aria-hidden="true" className="size-4" />
          {busy ? "Importing..." : "Import"}
        </Button>
      </div>
      <FieldMessages
        {...ids}
        hint="An image from another site is copied into the media library once: readers never load it from there."
        errors={error ? [error] : undefined}
      />
    </div>
  );
}
