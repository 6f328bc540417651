import { servicesContext } from "~/context";
import { ApiTokenError, apiTokenErrorResponse, authenticateApiRequest } from "../../../server/auth/api-tokens.ts";
import { readOnlyAction } from "../../../server/errors.ts";
import type { Route } from "./+types/me";

/**
 * GET /api/me: the user an API token acts for (id, email, name, roles). Authenticated
 * by `Authorization: Bearer <jwt>` only, never by the session cookie; a token that is
 * missing, malformed, expired or not signed by us answers 401 with `{ error }`
 * ("Invalid JWT signature" for a signature that does not verify).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  try {
    const user = await authenticateApiRequest(services, request);
    return Response.json(user, { headers: { "Cache-Control": "no-store", Vary: "Authorization" } });
  } catch (error) {
    if (error instanceof ApiTokenError) return apiTokenErrorResponse(error);
    throw error;
  }
}

export const action = readOnlyAction;
