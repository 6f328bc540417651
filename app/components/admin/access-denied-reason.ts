import { isRouteErrorResponse } from "react-router";
import type { AuthViewer } from "~/lib/use-auth";
import type { AccessDeniedReason } from "../../../server/auth/guards.ts";

/**
 * Reading the admin guard's 403 (app/routes/admin/layout.tsx): why access was denied,
 * and who was denied when the guard says (an editor on an admin-only page keeps the
 * admin shell). No UI here: the root error boundary imports it on every page.
 */

/** The reason of a 403 thrown by the admin guard, or undefined for any other error. */
export function accessDeniedReason(error: unknown): AccessDeniedReason | undefined {
  if (!error || typeof error !== "object" || (error as { status?: unknown }).status !== 403) return undefined;
  const reason = (error as { data?: { reason?: unknown } }).data?.reason;
  return reason === "admin-required" || reason === "no-role" ? reason : undefined;
}

/** The viewer the guard's 403 carries, if any. */
export function deniedViewer(error: unknown): AuthViewer | undefined {
  if (!isRouteErrorResponse(error) || error.status !== 403) return undefined;
  const viewer = (error.data as { viewer?: Partial<AuthViewer> } | null)?.viewer;
  if (!viewer?.user || typeof viewer.user.id !== "string" || !viewer.roles) return undefined;
  return viewer as AuthViewer;
}
