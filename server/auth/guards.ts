import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import type { BastionAuth } from "./auth.ts";
import { getUserRoles, type Role, type UserRoles } from "./roles.ts";

/**
 * The one guard of the admin area: every admin loader, action and API route goes
 * through checkAccess (pages, through the app's requireRole, which turns its outcome
 * into a redirect or a 403) or requireApiRole (JSON routes). The UI only reflects the
 * result.
 */

export interface Viewer {
  user: { id: string; email: string; name: string; twoFactorEnabled: boolean };
  session: { id: string; expiresAt: string };
  roles: UserRoles;
}

export interface GuardServices {
  auth: BastionAuth;
  db: Kysely<Database>;
  logger: Logger;
}

export type AccessDeniedReason = "no-role" | "admin-required";

/** What the guard decided for a page request. */
export type Access =
  | { outcome: "allowed"; viewer: Viewer }
  /** No session: sign in at `signInPath`, which brings the visitor back here. */
  | { outcome: "signed-out"; signInPath: string }
  | { outcome: "denied"; reason: AccessDeniedReason; viewer: Viewer };

/** The signed-in user of this request with their roles, or null. */
export async function getViewer(services: GuardServices, request: Request): Promise<Viewer | null> {
  const result = await services.auth.api.getSession({ headers: request.headers });
  if (!result) return null;
  const { user, session } = result;
  return {
    user: {
      id: user.id,
      email: user.email,
      name: user.name,
      twoFactorEnabled: Boolean((user as { twoFactorEnabled?: boolean | null }).twoFactorEnabled),
    },
    session: { id: session.id, expiresAt: new Date(session.expiresAt).toISOString() },
    roles: await getUserRoles(services, user.id),
  };
}

/** The path and query to come back to after signing in. */
function returnPath(request: Request): string {
  const url = new URL(request.url);
  return `${url.pathname.replace(/\.data$/, "")}${url.search}`;
}

/** Why roles do not allow what `role` needs (admins hold editor too), or null when they do. */
function deniedReason(roles: UserRoles, role: Role): AccessDeniedReason | null {
  if (!roles.isEditor) return "no-role";
  if (role === "admin" && !roles.isAdmin) return "admin-required";
  return null;
}

/** Whether this request's viewer may use a page that needs `role`. */
export async function checkAccess(services: GuardServices, request: Request, role: Role): Promise<Access> {
  const viewer = await getViewer(services, request);
  if (!viewer) {
    return { outcome: "signed-out", signInPath: `/auth?${new URLSearchParams({ redirectTo: returnPath(request) })}` };
  }
  const reason = deniedReason(viewer.roles, role);
  return reason ? { outcome: "denied", reason, viewer } : { outcome: "allowed", viewer };
}

/** For JSON API routes: 401 without a session, 403 without the role (thrown as Responses), never a redirect. */
export async function requireApiRole(services: GuardServices, request: Request, role: Role): Promise<Viewer> {
  const viewer = await getViewer(services, request);
  if (!viewer) throw Response.json({ error: "Authentication required" }, { status: 401 });
  if (deniedReason(viewer.roles, role)) throw Response.json({ error: "Forbidden" }, { status: 403 });
  return viewer;
}
