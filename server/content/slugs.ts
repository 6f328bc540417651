/**
 * Chapter slugs: lower-case ASCII words joined by hyphens, made from the title.
 * Uniqueness (-2, -3, …) is decided by the chapters service against current slugs
 * and former slugs that still redirect.
 */

const MAX_SLUG_LENGTH = 80;

export function slugify(title: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/g, "");
  return slug || "chapter";
}

/** The first of base, base-2, base-3, … that is not taken. */
export function uniqueSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
