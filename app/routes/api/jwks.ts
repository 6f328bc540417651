import { servicesContext } from "~/context";
import { getPublicKeys, JWKS_MAX_AGE_SECONDS } from "../../../server/auth/api-tokens.ts";
import { readOnlyAction } from "../../../server/errors.ts";
import type { Route } from "./+types/jwks";

/**
 * GET /.well-known/jwks.json: the public keys that verify our API tokens (Better Auth's
 * JWKS, private parts never included). Public and cacheable for a few minutes; a
 * verifier meeting an unknown key id should fetch again.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { auth } = context.get(servicesContext);
  const jwks = await getPublicKeys(auth);
  return Response.json(jwks, {
    headers: {
      "Content-Type": "application/jwk-set+json; charset=utf-8",
      "Cache-Control": `public, max-age=${JWKS_MAX_AGE_SECONDS}, stale-while-revalidate=${JWKS_MAX_AGE_SECONDS}`,
      "Access-Control-Allow-Origin": "*",
    },
  });
}

export const action = readOnlyAction;
