/**
 * Better Auth's cookies all start with this prefix (bastion.session_token, and
 * __Secure-bastion.… over HTTPS). A request carrying one is a signed-in (or signing-in)
 * visitor's: the page cache never serves or keeps it, and a state-changing request with
 * one must show that it comes from this site.
 */
export const AUTH_COOKIE_PREFIX = "bastion";

export function hasAuthCookie(header: string | string[] | undefined): boolean {
  if (!header) return false;
  const cookies = Array.isArray(header) ? header.join("; ") : header;
  for (const part of cookies.split(";")) {
    const separator = part.indexOf("=");
    const name = (separator === -1 ? part : part.slice(0, separator)).trim().replace(/^__(Secure|Host)-/, "");
    if (name.startsWith(AUTH_COOKIE_PREFIX)) return true;
  }
  return false;
}
