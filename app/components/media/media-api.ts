import {
  ACCEPTED_IMAGE_EXTENSIONS,
  ACCEPTED_IMAGE_TYPES,
  FILE_TOO_LARGE_MESSAGE,
  INVALID_FILE_TYPE_MESSAGE,
  MAX_IMAGE_BYTES,
} from "../../../server/media/rules.ts";

/**
 * The browser's side of the media API (app/routes/api/media.ts, media-import.ts): an
 * upload with its real progress, an import by URL, and the checks a file passes before
 * it is sent (the server checks again, from the bytes).
 */

/** An image as POST /api/media and POST /api/media/import answer it. */
export interface StoredImage {
  id: string;
  url: string;
  width: number;
  height: number;
  mime: string;
  bytes: number;
  alt: string | null;
  variants: Array<{ url: string; width: number; height: number; mime: string; bytes: number }>;
  /** The spec's success text. */
  message: string;
}

/** A refused or failed request; `reason` is the server's message when it sent one (a network error has none). */
export class MediaRequestError extends Error {
  readonly reason: string | null;
  constructor(reason: string | null) {
    super(reason ?? "The request failed");
    this.name = "MediaRequestError";
    this.reason = reason;
  }
}

/** What the file input accepts (its `accept` attribute). */
export const ACCEPT_IMAGES = ACCEPTED_IMAGE_TYPES.join(",");

/** Why a chosen file is not sent, with the spec's texts; null when it may be. */
export function refusalOf(file: File): string | null {
  const extension = file.name.split(".").pop()?.toLowerCase() ?? "";
  const accepted = file.type
    ? (ACCEPTED_IMAGE_TYPES as readonly string[]).includes(file.type)
    : (ACCEPTED_IMAGE_EXTENSIONS as readonly string[]).includes(extension);
  if (!accepted) return INVALID_FILE_TYPE_MESSAGE;
  if (file.size > MAX_IMAGE_BYTES) return FILE_TOO_LARGE_MESSAGE;
  return null;
}

/** The spec's steps: 0 when sending starts, 50 once half the bytes are sent, 100 when the answer arrives. */
export type UploadStep = 0 | 50 | 100;

/**
 * POST /api/media with XMLHttpRequest, whose upload events (unlike fetch's) tell how
 * much of the body has been sent. Resolves with the stored image; rejects with a
 * MediaRequestError.
 */
export function uploadImage(file: File, onStep: (step: UploadStep) => void): Promise<StoredImage> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", "/api/media");
    let halfSent = false;
    const reachHalf = () => {
      if (halfSent) return;
      halfSent = true;
      onStep(50);
    };
    request.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable && event.loaded * 2 >= event.total) reachHalf();
    });
    // A small body may be sent before any progress event says so.
    request.upload.addEventListener("load", reachHalf);
    request.addEventListener("load", () => {
      onStep(100);
      try {
        resolve(readAnswer(request.status, request.responseText));
      } catch (error) {
        reject(error);
      }
    });
    // The connection failed, or the server closed it while the body was still coming (an oversized one).
    for (const failure of ["error", "abort", "timeout"] as const) {
      request.addEventListener(failure, () => reject(new MediaRequestError(null)));
    }
    const body = new FormData();
    body.append("file", file);
    onStep(0);
    request.send(body);
  });
}

/** POST /api/media/import: the server fetches the image at `url` once into media storage. */
export async function importImage(url: string, alt?: string): Promise<StoredImage> {
  let response: Response;
  try {
    response = await fetch("/api/media/import", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ url, alt: alt || undefined }),
    });
  } catch {
    throw new MediaRequestError(null);
  }
  return readAnswer(response.status, await response.text().catch(() => ""));
}

/** The stored image of a 201, else a MediaRequestError with the answer's `error`, if any. */
function readAnswer(status: number, text: string): StoredImage {
  const body = parseJson(text);
  if (status === 201 && typeof body?.url === "string") return body as unknown as StoredImage;
  throw new MediaRequestError(typeof body?.error === "string" ? body.error : null);
}

function parseJson(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
