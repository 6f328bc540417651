import type { Kysely } from "kysely";
import { data, redirect } from "react-router";
import type { Database } from "../db/schema.ts";
import type { BastionAuth } from "./auth.ts";
import { getUserRoles, type Role, type UserRoles } from "./roles.ts";

/**
 * The one guard of the admin area: every admin loader, action and API
 * route goes through requireUser / requireRole. The UI only reflects the result.
 */

export interface Viewer {
  user: { id: string; email: string; name: string; twoFactorEnabled: boolean };
  session: { id: string; expiresAt: string };
  roles: UserRoles;
}

export interface GuardServices {
  auth: BastionAuth;
  db: Kysely<Database>;
}

export type AccessDeniedReason = "no-role" | "admin-required";

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
    roles: await getUserRoles(services.db, user.id),
  };
}

/** The path and query to come back to after signing in. */
function returnPath(request: Request): string {
  const url = new URL(request.url);
  return `${url.pathname.replace(/\.data$/, "")}${url.search}`;
}

/** The viewer, or a redirect to /auth that brings them back here after signing in. */
export async function requireUser(services: GuardServices, request: Request): Promise<Viewer> {
  const viewer = await getViewer(services, request);
  if (!viewer) throw redirect(`/auth?${new URLSearchParams({ redirectTo: returnPath(request) })}`);
  return viewer;
}

/** The viewer when they hold the role (admins hold editor too); otherwise 403 "Access Denied". */
export async function requireRole(services: GuardServices, request: Request, role: Role): Promise<Viewer> {
  const viewer = await requireUser(services, request);
  if (!viewer.roles.isEditor) throw data({ reason: "no-role" satisfies AccessDeniedReason }, { status: 403 });
  if (role === "admin" && !viewer.roles.isAdmin) {
    throw data({ reason: "admin-required" satisfies AccessDeniedReason }, { status: 403 });
  }
  return viewer;
}

/** For JSON API routes: 401 without a session, 403 without the role, never a redirect. */
export async function requireApiRole(services: GuardServices, request: Request, role: Role): Promise<Viewer> {
  const viewer = await getViewer(services, request);
  if (!viewer) throw Response.json({ error: "Authentication required" }, { status: 401 });
  if (!viewer.roles.isEditor || (role === "admin" && !viewer.roles.isAdmin)) {
    throw Response.json({ error: "Forbidden" }, { status: 403 });
  }
  return viewer;
}
