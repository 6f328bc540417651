/** An admin-entered URL worth a link: http(s) only (no javascript:, data: and the like). */
export function isWebUrl(value: string | null | undefined): value is string {
  if (!value || !URL.canParse(value)) return false;
  return /^https?:$/.test(new URL(value).protocol);
}

/** A button link from content: a same-site path or an http(s) URL, else the fallback. */
export function safeHref(value: string | null | undefined, fallback: string): string {
  if (value?.startsWith("/") && !value.startsWith("//")) return value;
  return isWebUrl(value) ? value : fallback;
}
