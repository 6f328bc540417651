import { readFileSync } from "node:fs";
import path from "node:path";
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

const APP_DIR = path.resolve(import.meta.dirname, "../../app");

const routeSource = (file: string) => readFileSync(path.join(APP_DIR, file), "utf8");

/** Whether a route module exports a loader or an action (read from its source). */
export function routeExports(file: string, name: "loader" | "action"): boolean {
  return new RegExp(`export (async )?(function|const) ${name}\\b`).test(routeSource(file));
}

/** Whether a route's action is another function under that name (`export const action = readOnlyAction;`). */
const actionIsAlias = (file: string, of = "\\w+") => new RegExp(`export const action = ${of};`).test(routeSource(file));

/** Resource routes: no page, JSON (or files) answered by the route itself. */
export const isResourceRoute = (route: FlatRoute) =>
  route.file.startsWith("routes/api/") || route.file.endsWith(".csv.ts");

// Sign-out reads no body: any same-origin POST ends the session (and a test's signed-in visitor's).
const READS_NO_BODY = new Set(["routes/auth/sign-out.tsx"]);

/**
 * The routes whose action reads a request body: every page form and API a test can post
 * garbage to. An action that is another function under that name (the read-only routes'
 * 405, the unknown API path's 404) reads none.
 */
export const BODY_ROUTES: FlatRoute[] = ROUTE_TABLE.filter(
  (route) => routeExports(route.file, "action") && !actionIsAlias(route.file) && !READS_NO_BODY.has(route.file),
);

/** Resource routes that only answer reads: their action is server/errors.ts's readOnlyAction. */
export const READ_ONLY_RESOURCE_ROUTES: FlatRoute[] = ROUTE_TABLE.filter(
  (route) => isResourceRoute(route) && actionIsAlias(route.file, "readOnlyAction"),
);

/** The URL path a POST to the route's action goes to (an index route's needs `?index`). */
export function actionPath(route: FlatRoute, placeholder?: string): string {
  const concrete = concretePath(route.path, placeholder);
  return route.index ? `${concrete}?index` : concrete;
}
