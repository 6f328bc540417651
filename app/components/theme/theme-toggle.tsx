import { Monitor, Moon, Sun } from "lucide-react";
import { type MouseEvent, useEffect, useState } from "react";
import { useLocation } from "react-router";
import { type Theme, themeCookie } from "./theme";
import { THEME_INTENT } from "./theme-action";
import { usePageTheme } from "./use-theme";

const OPTIONS: ReadonlyArray<{ theme: Theme; label: string; Icon: typeof Sun }> = [
  { theme: "light", label: "Light theme", Icon: Sun },
  { theme: "dark", label: "Dark theme", Icon: Moon },
  { theme: "system", label: "System theme", Icon: Monitor },
];

/**
 * Three buttons in a form. Without JavaScript the form posts to the home route's action,
 * which sets the cookie and redirects back; with JavaScript the choice applies at once
 * (the <html> element's data-theme) and the same cookie is written in the browser.
 */
export function ThemeToggle() {
  const initialTheme = usePageTheme() ?? "system";
  const location = useLocation();
  const [theme, setTheme] = useState(initialTheme);
  useEffect(() => setTheme(initialTheme), [initialTheme]);

  function choose(event: MouseEvent<HTMLButtonElement>, next: Theme) {
    event.preventDefault();
    // biome-ignore lint/suspicious/noDocumentCookie: the same plain cookie the server sets; no library needed.
    document.cookie = themeCookie(next, window.location.protocol === "https:");
    document.documentElement.dataset.theme = next;
    setTheme(next);
  }

  return (
    <form method="post" action="/?index" data-testid="theme-toggle" className="flex items-center">
      <input type="hidden" name="intent" value={THEME_INTENT} />
      <input type="hidden" name="returnTo" value={`${location.pathname}${location.search}`} />
      <fieldset className="flex items-center gap-0.5 rounded-full border border-line p-0.5">
        <legend className="sr-only">Colour theme</legend>
        {OPTIONS.map(({ theme: option, label, Icon }) => (
          <button
            key={option}
            type="submit"
            name="theme"
            value={option}
            aria-pressed={theme === option}
            title={label}
            data-theme-option={option}
            onClick={(event) => choose(event, option)}
            className="flex size-8 cursor-pointer items-center justify-center rounded-full text-fg-muted transition-colors hover:text-fg aria-pressed:bg-surface-raised aria-pressed:text-accent"
          >
            <Icon aria-hidden="true" className="size-4" />
            <span className="sr-only">{label}</span>
          </button>
        ))}
      </fieldset>
    </form>
  );
}
