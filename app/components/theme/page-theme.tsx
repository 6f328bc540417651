import { createContext, type ReactNode, use, useSyncExternalStore } from "react";
import { useMatches } from "react-router";
import { hydratesPage } from "~/lib/hydration";
import { isTheme, type Theme, themeCookie } from "./theme";

/**
 * The page's colour theme, the same on the server and in the browser:
 * - on the server, for a page React hydrates, from the request's theme cookie
 *   (entry.server.tsx provides it): the document React hydrates must say what it renders;
 * - on the server, for a page React does not hydrate (the public content pages, which the
 *   page cache shares between visitors), "system": the page's first script
 *   (APPLY_THEME_SCRIPT, root.tsx) applies the cookie's choice before the first paint,
 *   and the public page script shows it on the toggle;
 * - in the browser, from <html data-theme>, which the server or that script set and
 *   which choosePageTheme() changes.
 */

const RequestThemeContext = createContext<Theme | null>(null);

export function RequestThemeProvider({ theme, children }: { theme: Theme; children: ReactNode }) {
  return <RequestThemeContext value={theme}>{children}</RequestThemeContext>;
}

const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function documentTheme(): Theme {
  if (typeof document === "undefined") return "system";
  const value = document.documentElement.dataset.theme;
  return isTheme(value) ? value : "system";
}

export function usePageTheme(): Theme {
  const requestTheme = use(RequestThemeContext);
  const hydrated = hydratesPage(useMatches());
  // Hydration reads the document's theme too: for a hydrated page the server rendered the same one.
  const documentValue = useSyncExternalStore(subscribe, documentTheme, documentTheme);
  if (requestTheme === null) return documentValue;
  return hydrated ? requestTheme : "system";
}

/** Applies a theme at once and keeps it in the cookie the server reads. */
export function choosePageTheme(theme: Theme): void {
  // biome-ignore lint/suspicious/noDocumentCookie: themeCookie() builds the whole value; the Cookie Store API is not in every browser.
  document.cookie = themeCookie(theme, window.location.protocol === "https:");
  document.documentElement.dataset.theme = theme;
  for (const listener of listeners) listener();
}
