import { z } from "zod";
import { MAX_INTEGER_COLUMN } from "../validation.ts";

/** Input fields that several content editors share: links and order numbers. */

const LINK_MESSAGE = "Enter a URL starting with http://, https:// or /";
const HTTP_URL_MESSAGE = "Enter a URL starting with http:// or https://";

// Browsers drop tabs and newlines inside URLs ("/\t/evil.example" becomes "//evil.example"),
// so a link holding any control character or space is refused rather than reasoned about.
const hasControlOrSpace = (value: string) => /[\s\p{Cc}]/u.test(value);

/** An http(s) URL; never javascript:, data: or any other scheme. */
function isHttpUrl(value: string): boolean {
  if (hasControlOrSpace(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** A same-site absolute path ("/projects", not "//host" nor "/\host") or an http(s) URL. */
export function isSafeLink(value: string): boolean {
  if (value.startsWith("/")) {
    return !hasControlOrSpace(value) && !value.startsWith("//") && !value.startsWith("/\\");
  }
  return isHttpUrl(value);
}

/** A trimmed link that may be empty (unset), else a safe link. */
export const optionalLink = z
  .string()
  .trim()
  .max(2000, "URL is too long")
  .refine((value) => value === "" || isSafeLink(value), LINK_MESSAGE);

export const requiredLink = z
  .string({ error: "URL is required" })
  .trim()
  .min(1, "URL is required")
  .max(2000, "URL is too long")
  .refine(isSafeLink, LINK_MESSAGE);

/** A trimmed http(s) URL that may be empty (unset); links to other sites only. */
export const optionalHttpUrl = z
  .string()
  .trim()
  .max(2000, "URL is too long")
  .refine((value) => value === "" || isHttpUrl(value), HTTP_URL_MESSAGE);

const blankAsMissing = (value: unknown) =>
  value === "" || value === null ? undefined : typeof value === "string" ? value.trim() : value;

/** A whole number from 0 that may be left blank (undefined); anything else is refused with `message`. */
export const optionalWholeNumber = (message: string) =>
  z.preprocess(
    blankAsMissing,
    z.coerce.number({ error: message }).int(message).min(0, message).max(1_000_000, message).optional(),
  );

/** Tips and resources: an order value that is not a whole number from 0 becomes 0, as the spec asks. */
export const lenientOrderIndex = z.unknown().transform((value) => {
  const number = typeof value === "string" ? Number(value.trim()) : value;
  return typeof number === "number" && Number.isInteger(number) && number >= 0 && number <= 1_000_000 ? number : 0;
});

const REVISION_MESSAGE = "This form is out of date. Reload the page and try again.";

/** The revision a record had when its editor opened it (see revisions.ts). */
export const revisionField = z
  .number({ error: REVISION_MESSAGE })
  .int(REVISION_MESSAGE)
  .min(0, REVISION_MESSAGE)
  .max(MAX_INTEGER_COLUMN, REVISION_MESSAGE);

/** The ids of a list in their new order, for a drag-and-drop reorder. */
/** The id of the item a form edits, moves or deletes; the form sends it, so a bad one is a bad form. */
export const itemIdField = z.string({ error: "The form was not understood." }).min(1).max(200);

export const orderedIdsField = z.array(z.string().min(1), { error: "Give the new order of the list" }).max(10_000);
