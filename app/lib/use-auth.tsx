import { createContext, type ReactNode, use, useEffect, useMemo, useRef } from "react";
import { useLocation, useNavigate } from "react-router";
import { authClient } from "./auth-client";

/**
 * Who is signed in to the admin area, for the UI only: the admin layout's loader
 * (after the server guard) provides it, and components read it with useAuth(). The
 * server enforces every rule; this only decides what to show.
 */

export interface AuthUser {
  id: string;
  name: string;
  email: string;
}

export interface AuthRoles {
  isAdmin: boolean;
  /** True for editors and admins: both manage content. */
  isEditor: boolean;
}

/** What the admin layout's loader hands to the client. */
export interface AuthViewer {
  user: AuthUser;
  roles: AuthRoles;
}

export interface AuthState extends AuthRoles {
  user: AuthUser;
}

/**
 * How often the session is checked (and so refreshed by Better Auth, which extends a
 * session in use) while the page is visible. Also checked each time it becomes visible.
 */
export const SESSION_REFRESH_INTERVAL_MS = 5 * 60 * 1000;

const AuthContext = createContext<AuthState | null>(null);

export interface AuthProviderProps {
  viewer: AuthViewer;
  children: ReactNode;
}

export function AuthProvider({ viewer, children }: AuthProviderProps) {
  const { user, roles } = viewer;
  const value = useMemo<AuthState>(
    () => ({
      user: { id: user.id, name: user.name, email: user.email },
      isAdmin: roles.isAdmin,
      isEditor: roles.isEditor,
    }),
    [user.id, user.name, user.email, roles.isAdmin, roles.isEditor],
  );
  useSessionRefresh();
  return <AuthContext value={value}>{children}</AuthContext>;
}

export function useAuth(): AuthState {
  const value = use(AuthContext);
  if (!value) throw new Error("useAuth must be used within an AuthProvider");
  return value;
}

/**
 * Keeps the session alive while the page is visible (the spec: auto-refresh while
 * visible, stopped while hidden): asking Better Auth for the session is what extends it.
 * When the session has ended (expired, revoked, signed out in another tab), goes to the
 * sign-in page, which brings the user back here afterwards. A failed request (offline,
 * rate limited, server error) is not a signed-out session: it is retried at the next tick.
 */
function useSessionRefresh(): void {
  const navigate = useNavigate();
  const location = useLocation();
  const here = useRef("");
  here.current = `${location.pathname}${location.search}`;

  useEffect(() => {
    let timer: ReturnType<typeof setInterval> | undefined;
    let active = true;
    let signedOut = false;

    async function check() {
      let result: Awaited<ReturnType<typeof authClient.getSession>>;
      try {
        result = await authClient.getSession();
      } catch {
        return;
      }
      if (!active || signedOut || result.error) return;
      if (!result.data) {
        signedOut = true;
        stop();
        navigate(`/auth?${new URLSearchParams({ redirectTo: here.current })}`, { replace: true });
      }
    }

    function start() {
      timer ??= setInterval(() => void check(), SESSION_REFRESH_INTERVAL_MS);
    }

    function stop() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
    }

    function onVisibilityChange() {
      if (document.visibilityState === "visible") {
        void check();
        start();
      } else {
        stop();
      }
    }

    if (document.visibilityState === "visible") start();
    document.addEventListener("visibilitychange", onVisibilityChange);
    return () => {
      active = false;
      stop();
      document.removeEventListener("visibilitychange", onVisibilityChange);
    };
  }, [navigate]);
}
