import { Outlet } from "react-router";
import { accessDeniedReason } from "~/components/admin/access-denied-reason";
import AdminErrorPage from "~/components/admin/admin-error-page";
import { AdminShell } from "~/components/admin/admin-shell";
import { servicesContext, viewerContext } from "~/context";
import { clientViewer, requireRole } from "~/lib/guards.server";
import { errorPageMeta, pageTitle } from "~/lib/meta";
import { privateResponse } from "~/lib/private-response.server";
import { AuthProvider, type AuthViewer } from "~/lib/use-auth";
import { requiredRoleForPath } from "../../../server/auth/access.ts";
import type { Role } from "../../../server/auth/roles.ts";
import type { Route } from "./+types/layout";

/**
 * The admin area's one guard. As a route middleware it runs before every loader and
 * action of every route below this layout (documents, `.data` requests and form posts
 * alike, including routes added later), so no admin route can forget it:
 * anonymous → redirect to /auth?redirectTo=…; no role → 403; editor on an admin-only
 * page → 403. Routes below read the viewer with `context.get(viewerContext)`.
 */
export const middleware: Route.MiddlewareFunction[] = [
  // First, so that it also marks the guard's redirects and 403s.
  async (_args, next) => privateResponse(await next()),
  async ({ request, context, pattern }, next) => {
    const services = context.get(servicesContext);
    // React Router matches paths case-insensitively and percent-decoded, so /admin/SETTINGS
    // and /admin/%73ettings are the settings page too: the role is decided on the matched
    // route pattern, and on the URL path decoded and lower-cased (the stricter wins).
    const role = strictest(
      requiredRoleForPath(`/${pattern.replace(/^\/+/, "")}`),
      requiredRoleForPath(decodedLowerCasePath(new URL(request.url).pathname)),
    );
    context.set(viewerContext, await requireRole(services, request, role));
    return next();
  },
];

export async function loader({ context }: Route.LoaderArgs): Promise<AuthViewer> {
  return clientViewer(context.get(viewerContext));
}

/**
 * The path decoded and lower-cased, as the route table spells its admin paths. Not the
 * redirect's spelling (server/http/canonical-path.ts), which leaves escaped paths alone:
 * the guard must judge every path the router may match.
 */
function decodedLowerCasePath(pathname: string): string {
  let path = pathname;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    // Malformed encoding: the router will not match it to an admin page either.
  }
  return path.toLowerCase().replace(/\/{2,}/g, "/");
}

function strictest(...roles: Role[]): Role {
  return roles.includes("admin") ? "admin" : "editor";
}

export const meta: Route.MetaFunction = ({ error }) => {
  if (!error) return [{ title: pageTitle("Admin") }, { name: "robots", content: "noindex" }];
  if (accessDeniedReason(error)) return [{ title: pageTitle("Access Denied") }, { name: "robots", content: "noindex" }];
  return errorPageMeta(error);
};

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AuthProvider viewer={loaderData}>
      <AdminShell>
        <Outlet />
      </AdminShell>
    </AuthProvider>
  );
}

/**
 * Access Denied for the guard's 403s met on a client-side navigation (a page load the
 * guard refuses is shown by the root's boundary: the root's loader is above this
 * middleware), and the errors of the pages below, inside the admin shell.
 */
export function ErrorBoundary({ error, loaderData }: Route.ErrorBoundaryProps) {
  return <AdminErrorPage error={error} viewer={loaderData} />;
}
