/**
 * The colour theme: "system" follows prefers-color-scheme; "light" and "dark" are the
 * visitor's choice, kept in a cookie that the page's first script (APPLY_THEME_SCRIPT)
 * and, for the pages React hydrates, the server read, so the first paint is right.
 */

export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];

export const THEME_COOKIE = "theme";
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

export function isTheme(value: unknown): value is Theme {
  return typeof value === "string" && (THEMES as readonly string[]).includes(value);
}

/**
 * The fixed inline script at the top of every page's <head>: it applies the theme cookie's
 * choice to <html data-theme> before the first paint. The pages React does not hydrate are
 * rendered in the "system" theme for everyone (page-theme.tsx), so that the page cache
 * keeps one copy of each; this script gives each visitor theirs. A block, so that its
 * constant does not reach the global scope; allowed by the page's CSP nonce.
 */
export const APPLY_THEME_SCRIPT = `{const m=/(?:^|; )${THEME_COOKIE}=(${THEMES.filter((theme) => theme !== "system").join("|")})(?:;|$)/.exec(document.cookie);if(m)document.documentElement.dataset.theme=m[1]}`;

/** The theme chosen in the request's cookies; "system" when none (or an invalid one). */
export function themeFromCookieHeader(header: string | null | undefined): Theme {
  for (const part of header?.split(";") ?? []) {
    const [name, ...rest] = part.trim().split("=");
    if (name === THEME_COOKIE) {
      const value = rest.join("=");
      return isTheme(value) ? value : "system";
    }
  }
  return "system";
}

/** The Set-Cookie value (also usable as document.cookie) that stores the theme; "system" clears it. */
export function themeCookie(theme: Theme, secure = false): string {
  const attributes = `Path=/; SameSite=Lax${secure ? "; Secure" : ""}`;
  return theme === "system"
    ? `${THEME_COOKIE}=; Max-Age=0; ${attributes}`
    : `${THEME_COOKIE}=${theme}; Max-Age=${ONE_YEAR_SECONDS}; ${attributes}`;
}

/** The form field that marks a post as the theme toggle's. */
export const THEME_INTENT = "set-theme";

/** A path on this site: one "/" then printable ASCII, never "//" (another host). */
const RETURN_PATH = /^\/(?!\/)[!-~]*$/;

/** A same-site path to return to after the theme form; anything else goes home. */
export function safeReturnPath(value: unknown): string {
  // Printable ASCII only: a control character, a space or a non-ASCII letter would be
  // refused by the Location header (a 500) or, like a tab, ignored by browsers, turning
  // "/\t/evil.example" into the other site "//evil.example".
  if (typeof value !== "string" || !RETURN_PATH.test(value) || value.includes("\\")) return "/";
  return value;
}
