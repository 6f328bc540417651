import { createContext, type ReactNode, use, useSyncExternalStore } from "react";
import { isTheme, type Theme, themeCookie } from "./theme";

/**
 * The page's colour theme, the same on the server and in the browser:
 * - on the server, from the request's theme cookie (entry.server.tsx provides it), so
 *   every page — error pages included, which no loader prepares — is painted in the
 *   visitor's theme from the first byte;
 * - in the browser, from <html data-theme>, which the server set and which
 *   choosePageTheme() changes.
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
  // Hydration reads the document's theme too: the server rendered the same one.
  const documentValue = useSyncExternalStore(subscribe, documentTheme, documentTheme);
  return requestTheme ?? documentValue;
}

/** Applies a theme at once and keeps it in the cookie the server reads. */
export function choosePageTheme(theme: Theme): void {
  // biome-ignore lint/suspicious/noDocumentCookie: themeCookie() builds the whole value; the Cookie Store API is not in every browser.
  document.cookie = themeCookie(theme, window.location.protocol === "https:");
  document.documentElement.dataset.theme = theme;
  for (const listener of listeners) listener();
}
