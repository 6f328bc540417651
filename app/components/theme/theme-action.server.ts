import { redirect } from "react-router";
import { readForm } from "~/lib/read-form.server";
import { isTheme, safeReturnPath, THEME_INTENT, themeCookie } from "./theme";

/**
 * The theme toggle's form, without JavaScript: it posts here (the home route's action),
 * the cookie is set and the visitor goes back to the page they were on.
 * Returns null when the post was not the theme form's.
 */
export async function handleThemeAction(request: Request): Promise<Response | null> {
  const form = await readForm(request);
  if (form.get("intent") !== THEME_INTENT) return null;
  const theme = form.get("theme");
  const headers = new Headers();
  if (isTheme(theme)) headers.append("Set-Cookie", themeCookie(theme, new URL(request.url).protocol === "https:"));
  return redirect(safeReturnPath(form.get("returnTo")), { status: 303, headers });
}
