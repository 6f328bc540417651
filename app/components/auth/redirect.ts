import { safeRedirectPath } from "../../../server/auth/access.ts";

export const DEFAULT_AFTER_SIGN_IN = "/admin";

/**
 * Where to go after signing in: the `redirectTo` value when it is a same-origin
 * relative path (anything else, `//evil.example` included, is ignored), and never
 * back into /auth itself, which would loop; /admin otherwise.
 */
export function afterSignInPath(value: string | null | undefined): string {
  const path = safeRedirectPath(value);
  if (!path || path === "/auth" || path.startsWith("/auth/") || path.startsWith("/auth?")) return DEFAULT_AFTER_SIGN_IN;
  return path;
}

/** The redirectTo worth keeping in links between the auth pages (undefined for the default). */
export function keptRedirect(value: string | null | undefined): string | undefined {
  const path = afterSignInPath(value);
  return path === DEFAULT_AFTER_SIGN_IN ? undefined : path;
}
