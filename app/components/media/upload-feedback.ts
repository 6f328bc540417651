import { toast } from "sonner";
import { UPLOAD_FAILED_MESSAGE } from "../../../server/media/rules.ts";
import { MediaRequestError } from "./media-api";

/** The server's reason for refusing an upload or import; null after a network error or an answer without one. */
export function reasonOf(error: unknown): string | null {
  return error instanceof MediaRequestError ? error.reason : null;
}

/** The spec's failure toast: "Upload failed" with the reason, or "Failed to upload image" when there is none. */
export function toastUploadFailure(reason: string | null): void {
  if (reason) toast.error("Upload failed", { description: reason });
  else toast.error(UPLOAD_FAILED_MESSAGE);
}
