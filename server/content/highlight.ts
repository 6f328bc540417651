import { type BundledLanguage, bundledLanguages, createHighlighter, type HighlighterGeneric } from "shiki";
import { createJavaScriptRegexEngine } from "shiki/engine/javascript";
import type { Logger } from "../logger.ts";

/**
 * Server-side syntax highlighting of chapter code sections with Shiki. Both themes are
 * rendered at once as CSS variables (--shiki-light, --shiki-dark); app.css picks the one
 * of the page's theme, so a theme switch needs no re-render. The high-contrast GitHub
 * themes keep every token at 4.5:1 or better on their own backgrounds.
 *
 * Languages load on first use; an unknown language returns null and the page shows the
 * code as plain text, as does code Shiki fails on (logged, once: the failure is memoised
 * with the rest). Results are memoised: chapters are read far more often than edited.
 *
 * Grammars run on Shiki's JavaScript regex engine rather than its Oniguruma WebAssembly
 * build: the WebAssembly memory grows with each language loaded and is never given back
 * (docs/decisions/018-server-memory.md).
 */

const THEMES = { light: "github-light-high-contrast", dark: "github-dark-high-contrast" } as const;
const CACHE_LIMIT = 2_000;

type Highlighter = HighlighterGeneric<BundledLanguage, (typeof THEMES)[keyof typeof THEMES]>;

let highlighter: Promise<Highlighter> | undefined;
const cache = new Map<string, string | null>();

function getHighlighter(): Promise<Highlighter> {
  highlighter ??= (
    createHighlighter({
      themes: [THEMES.light, THEMES.dark],
      langs: [],
      engine: createJavaScriptRegexEngine(),
    }) as Promise<Highlighter>
  ).catch((error) => {
    // Not kept: the next code block tries again instead of failing for the process's life.
    highlighter = undefined;
    throw error;
  });
  return highlighter;
}

/** The bundled language id for a section's language (case-insensitive, aliases included), or null. */
export function resolveLanguage(language: string | null | undefined): BundledLanguage | null {
  const id = language?.trim().toLowerCase();
  if (!id) return null;
  return Object.hasOwn(bundledLanguages, id) ? (id as BundledLanguage) : null;
}

/**
 * Shiki's HTML (a <pre class="shiki"> element) for the code, or null for an unknown
 * language or code it failed on (logged on `logger`).
 */
export async function highlightCode(
  code: string,
  language: string | null | undefined,
  logger: Pick<Logger, "warn">,
): Promise<string | null> {
  const lang = resolveLanguage(language);
  if (!lang) return null;
  const key = `${lang}\u0000${code}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;

  let instance: Highlighter;
  try {
    instance = await getHighlighter();
  } catch (error) {
    logger.warn({ err: error }, "Syntax highlighting is unavailable; code blocks are shown as plain text");
    return null;
  }
  let html: string | null;
  try {
    if (!instance.getLoadedLanguages().includes(lang)) await instance.loadLanguage(lang);
    html = instance.codeToHtml(code, { lang, themes: THEMES, defaultColor: false });
  } catch (error) {
    logger.warn(
      { err: error, language: lang, characters: code.length },
      "A code block could not be highlighted; it is shown as plain text",
    );
    html = null;
  }
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, html);
  return html;
}
