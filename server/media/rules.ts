/**
 * The rules every image follows on its way in, whether uploaded or imported by URL,
 * and the texts people see when one is broken (the spec's texts where it has them).
 */

/** The logical bucket of the spec: the folder (local) or key prefix (S3) of every image. */
export const MEDIA_BUCKET = "project-images";

/**
 * The types the upload control lets through before sending (the declared type, or the
 * extension when the browser declares none). Only a first filter, for a quick answer:
 * the server decides from the bytes.
 */
export const ACCEPTED_IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"] as const;
export const ACCEPTED_IMAGE_EXTENSIONS = ["jpg", "jpeg", "png", "webp", "gif"] as const;

/** 5 MB, as the spec counts it (the upload control checks the same number). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/**
 * Decoding needs about 3–4 bytes per pixel: 50 megapixels (a 48 MP phone photo fits)
 * costs up to ~200 MB while it is processed. Anything larger is refused from its header,
 * before a single pixel is decoded, so a small file cannot claim gigabytes.
 */
export const MAX_IMAGE_PIXELS = 50_000_000;

/** Room for the multipart boundary, part headers and a short alt text around the file. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
export const UPLOAD_BODY_LIMIT_BYTES = MAX_IMAGE_BYTES + MULTIPART_OVERHEAD_BYTES;

/** Widths of the responsive copies made at upload; only those narrower than the image. */
export const VARIANT_WIDTHS = [480, 960, 1600] as const;

/** File names carry a random part and are never reused, so a stored file never changes. */
export const IMMUTABLE_CACHE_CONTROL = "public, max-age=31536000, immutable";

export const MAX_ALT_LENGTH = 500;

export const INVALID_FILE_TYPE_MESSAGE = "Invalid file type. Please upload a JPG, PNG, WebP, or GIF image.";
export const FILE_TOO_LARGE_MESSAGE = "File size exceeds 5MB. Please upload a smaller image.";
export const TOO_MANY_PIXELS_MESSAGE = `The image is too large to process (more than ${MAX_IMAGE_PIXELS / 1_000_000} megapixels). Please upload a smaller image.`;
export const INVALID_IMAGE_URL_MESSAGE = "Invalid image URL";
export const IMAGE_UPLOADED_MESSAGE = "Image uploaded successfully";
export const UPLOAD_FAILED_MESSAGE = "Failed to upload image";
export const IMAGE_DELETED_MESSAGE = "Image deleted successfully";
export const DELETE_FAILED_MESSAGE = "Failed to delete image";
export const IMAGE_NOT_FOUND_MESSAGE = "Image not found";
