import type { Kysely } from "kysely";
import type { Config } from "../config.ts";
import type { Database } from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import { ApiTokenError, apiTokenErrorResponse, authenticateApiRequest } from "./api-tokens.ts";
import type { BastionAuth } from "./auth.ts";
import { requireApiRole } from "./guards.ts";
import type { Role } from "./roles.ts";

/**
 * For JSON API routes used by both the admin screens and API clients: the caller is
 * the signed-in user of the session cookie, or, when the request carries
 * `Authorization: Bearer`, the user of that API token. 401 without either (or with a
 * token that does not verify), 403 without the role; thrown as Responses.
 */
export async function requireApiCaller(
  services: { auth: BastionAuth; db: Kysely<Database>; config: Pick<Config, "publicOrigin">; logger: Logger },
  request: Request,
  role: Role,
): Promise<{ userId: string }> {
  if (!request.headers.has("authorization")) {
    const viewer = await requireApiRole(services, request, role);
    return { userId: viewer.user.id };
  }
  try {
    const user = await authenticateApiRequest(services, request);
    const allowed = user.roles.includes("admin") || (role === "editor" && user.roles.includes("editor"));
    if (!allowed)
      throw Response.json({ error: "Forbidden" }, { status: 403, headers: { "Cache-Control": "no-store" } });
    return { userId: user.id };
  } catch (error) {
    if (error instanceof ApiTokenError) throw apiTokenErrorResponse(error);
    throw error;
  }
}
