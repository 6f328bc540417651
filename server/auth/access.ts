import type { Role } from "./roles.ts";

/**
 * Which role each admin path needs (the spec): editors manage all
 * content; site settings, subscriber data and user accounts are for admins only.
 * Prefixes match whole path segments.
 */
const ADMIN_ONLY_PREFIXES = [
  "/admin/settings",
  "/admin/newsletter",
  "/admin/users",
  "/api/admin/users",
  "/api/admin/newsletter",
  "/api/newsletter/test-email",
];

/**
 * The role a request path needs. React Router's data requests (`/x.data`) count as
 * their page, and the path is compared as the router matches it: percent-decoded
 * and case-insensitively, so `/admin/SETTINGS` or `/admin/%73ettings` need admin too.
 */
export function requiredRoleForPath(pathname: string): Role {
  let path = pathname.replace(/\.data$/, "");
  try {
    path = decodeURIComponent(path);
  } catch {
    // A malformed escape matches no route; keep the raw path.
  }
  path = path.toLowerCase().replace(/\/+$/, "");
  return ADMIN_ONLY_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`)) ? "admin" : "editor";
}

/**
 * A same-origin relative path to return to after sign-in, or undefined. Anything
 * that could leave the site (`//evil`, `/\evil`, `https://…`, control characters)
 * is ignored.
 */
export function safeRedirectPath(value: string | null | undefined): string | undefined {
  if (!value?.startsWith("/") || value.startsWith("//")) return undefined;
  // Backslashes (browsers read `/\evil` as `//evil`) and control characters.
  if ([...value].some((character) => character === "\\" || character.charCodeAt(0) < 0x20)) return undefined;
  try {
    const url = new URL(value, "http://bastion.invalid");
    if (url.origin !== "http://bastion.invalid") return undefined;
    const path = `${url.pathname}${url.search}${url.hash}`;
    // The parser resolves dot segments, plain or escaped: `/..//evil` comes out as `//evil`.
    return path.startsWith("//") ? undefined : path;
  } catch {
    return undefined;
  }
}
