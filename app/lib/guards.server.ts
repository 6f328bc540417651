import { data, redirect } from "react-router";
import type { AuthViewer } from "~/lib/use-auth";
import { type AccessDeniedReason, checkAccess, type GuardServices, type Viewer } from "../../server/auth/guards.ts";
import type { Role } from "../../server/auth/roles.ts";

/**
 * The guard's outcome (server/auth/guards.ts) as React Router answers it: the viewer
 * when allowed; a redirect to sign-in (and back) without a session; a 403 carrying the
 * reason, which the Access Denied page reads (app/components/admin/access-denied-reason.ts).
 */
export async function requireRole(services: GuardServices, request: Request, role: Role): Promise<Viewer> {
  const access = await checkAccess(services, request, role);
  if (access.outcome === "signed-out") throw redirect(access.signInPath);
  if (access.outcome === "denied") throw deniedResponse(access.reason, access.viewer);
  return access.viewer;
}

/** The viewer as the browser may see it: no session id, no factors. */
export function clientViewer(viewer: Viewer): AuthViewer {
  const { user, roles } = viewer;
  return {
    user: { id: user.id, name: user.name, email: user.email },
    roles: { isAdmin: roles.isAdmin, isEditor: roles.isEditor },
  };
}

/** The payload of the guard's 403 for an editor on an admin-only page. */
interface AdminRequiredPayload {
  reason: "admin-required";
  /** So the Access Denied page keeps the editor's sidebar and account menu. */
  viewer: AuthViewer;
}

/**
 * The guard's 403. For an editor on an admin-only page it carries the editor's own name
 * and roles, so the page can keep the admin shell (the admin layout's loader did not run).
 */
function deniedResponse(reason: AccessDeniedReason, viewer: Viewer) {
  if (reason === "no-role") return data({ reason }, { status: 403 });
  return data({ reason, viewer: clientViewer(viewer) } satisfies AdminRequiredPayload, { status: 403 });
}
