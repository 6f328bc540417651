import { createContext } from "react-router";
import type { Viewer } from "../server/auth/guards.ts";
import type { AppServices } from "../server/services.ts";

/** Per-request values set by the Express layer. */
export interface RequestValues {
  /** Nonce of this response's Content-Security-Policy; every inline script carries it. */
  cspNonce: string;
  /**
   * The route pattern React Router matched ("/projects/:slug"), set once it has
   * (app/entry.server.tsx): the bounded label of the request's metrics (server/metrics/).
   */
  routePattern?: string;
  /** The request's id (X-Request-Id), for log lines written outside the Express layer. */
  requestId?: string;
}

export const servicesContext = createContext<AppServices>();
/** The signed-in viewer of an admin request, set by the admin layout's guard. */
export const viewerContext = createContext<Viewer>();
export const requestContext = createContext<RequestValues>();
