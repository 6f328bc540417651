/** Page descriptions (meta description, Open Graph) made from content: the reader's chapters, the About page. */

/** A description from free text: whitespace collapsed, cut at a word near 160 characters. */
export function summarize(text: string, limit = 160): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= limit) return flat;
  const cut = flat.slice(0, limit - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > limit * 0.6 ? cut.slice(0, space) : cut).replace(/[\s.,;:]+$/, "")}…`;
}
