/** An admin-entered URL worth a link: http(s) only (no javascript:, data: and the like). */
export function isWebUrl(value: string | null | undefined): value is string {
  if (!value || !URL.canParse(value)) return false;
  return /^https?:$/.test(new URL(value).protocol);
}

/** A path on this site ("/projects/intro"); never "//host" nor "/\\host", which browsers read as another site. */
export function isSitePath(value: string | null | undefined): value is string {
  return Boolean(value?.startsWith("/") && !value.startsWith("//") && !value.startsWith("/\\"));
}

/** A button link from content: a same-site path or an http(s) URL, else the fallback. */
export function safeHref(value: string | null | undefined, fallback: string): string {
  if (isSitePath(value)) return value;
  return isWebUrl(value) ? value : fallback;
}
