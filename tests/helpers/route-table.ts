import routes from "../../app/routes.ts";

/**
 * The application's route table (app/routes.ts), flattened: every route with its full
 * path and the route files it is nested in. Tests enumerate it instead of keeping their
 * own list, so a route added later is covered (or makes them fail) automatically.
 */

interface RouteEntry {
  file: string;
  path?: string;
  index?: boolean;
  children?: RouteEntry[];
}

export interface FlatRoute {
  /** The module, relative to app/ ("routes/admin/settings.tsx"). */
  file: string;
  /** The full URL pattern, with a leading slash ("/admin/settings", "/admin/users/:id"). */
  path: string;
  index: boolean;
  /** The files of the routes it is nested in, outermost first. */
  ancestors: string[];
  /** Whether other routes are nested in it (a layout or parent route). */
  hasChildren: boolean;
}

function joinPath(parent: string, child: string | undefined): string {
  if (!child) return parent;
  // Child paths are relative to their parent, unless absolute.
  const joined = child.startsWith("/") ? child : `${parent.replace(/\/$/, "")}/${child}`;
  return joined.replace(/\/{2,}/g, "/");
}

function flatten(entries: RouteEntry[], parentPath: string, ancestors: string[], into: FlatRoute[]): FlatRoute[] {
  for (const entry of entries) {
    const path = joinPath(parentPath, entry.path);
    into.push({
      file: entry.file,
      path: path || "/",
      index: entry.index === true,
      ancestors,
      hasChildren: Boolean(entry.children?.length),
    });
    if (entry.children) flatten(entry.children, path, [...ancestors, entry.file], into);
  }
  return into;
}

export const ROUTE_TABLE: FlatRoute[] = flatten(routes as RouteEntry[], "", [], []);

/** Whether a URL pattern is `prefix` or lies below it (whole segments, case-insensitive like the router). */
export function isUnder(path: string, prefix: string): boolean {
  const lower = path.toLowerCase();
  return lower === prefix || lower.startsWith(`${prefix}/`);
}

/**
 * A concrete URL path for a pattern: dynamic segments get a placeholder value, optional
 * segments are left out, a splat matches one placeholder segment.
 */
export function concretePath(pattern: string, placeholder = "guard-matrix-test"): string {
  const segments = pattern
    .split("/")
    .filter((segment) => !segment.endsWith("?"))
    .map((segment) => (segment.startsWith(":") || segment === "*" ? placeholder : segment));
  return segments.join("/") || "/";
}
