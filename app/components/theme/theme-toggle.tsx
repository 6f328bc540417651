import { Monitor, Moon, Sun } from "lucide-react";
import { useLocation } from "react-router";
import { usePageTheme } from "./page-theme";
import { THEME_INTENT, type Theme, themeCookie } from "./theme";

const OPTIONS: ReadonlyArray<{ theme: Theme; label: string; Icon: typeof Sun }> = [
  { theme: "light", label: "Light theme", Icon: Sun },
  { theme: "dark", label: "Dark theme", Icon: Moon },
  { theme: "system", label: "System theme", Icon: Monitor },
];

/**
 * Three buttons in a form. Without JavaScript the form posts to the home route's action,
 * which sets the cookie and redirects back; with JavaScript (app/enhancements/public-page.js)
 * the choice applies at once (the <html> element's data-theme) and the button's
 * data-theme-cookie is written in the browser: the cookie the server would set.
 */
export function ThemeToggle() {
  const theme = usePageTheme();
  const location = useLocation();

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
            data-theme-cookie={themeCookie(option)}
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
