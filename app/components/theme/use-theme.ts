import { useRouteLoaderData } from "react-router";
import { isTheme, type Theme } from "./theme";

/**
 * The page's colour theme as the server read it from the cookie (the root loader), so
 * that the first paint of every page, public or admin, is in the visitor's theme.
 */
export function usePageTheme(): Theme {
  const data = useRouteLoaderData("root") as { theme?: unknown } | undefined;
  return isTheme(data?.theme) ? data.theme : "system";
}
