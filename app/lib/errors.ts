import { type ErrorResponse, isRouteErrorResponse } from "react-router";

export function isNotFound(error: unknown): boolean {
  return isRouteErrorResponse(error) && error.status === 404;
}

/** A request the server refused (4xx other than 404): the visitor's to change, not our failure. */
export function isRefusedRequest(error: unknown): error is ErrorResponse {
  return isRouteErrorResponse(error) && error.status >= 400 && error.status < 500 && error.status !== 404;
}

/** The document title of the error page a route shows: what its heading says, shorter. */
export function errorPageTitle(error: unknown): string {
  if (isNotFound(error)) return "Page not found";
  return isRefusedRequest(error) ? "This request could not be handled" : "Something went wrong";
}
