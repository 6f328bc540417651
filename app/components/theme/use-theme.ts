import { useRouteLoaderData } from "react-router";
import { isTheme, type Theme } from "./theme";

/** The public layout's route id: its loader reads the theme cookie. */
const PUBLIC_LAYOUT_ID = "routes/public/layout";

/**
 * The theme of a public page as the server read it from the cookie, or undefined outside
 * the public site (the admin area and sign-in pages keep the dark theme).
 */
export function usePageTheme(): Theme | undefined {
  const data = useRouteLoaderData(PUBLIC_LAYOUT_ID) as { theme?: unknown } | undefined;
  return isTheme(data?.theme) ? data.theme : undefined;
}
