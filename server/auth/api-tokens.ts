import type { JwtOptions } from "better-auth/plugins";
import { createLocalJWKSet, errors, type JSONWebKeySet, type JWTPayload, jwtVerify } from "jose";
import type { Kysely } from "kysely";
import type { Config } from "../config.ts";
import type { Database } from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import type { BastionAuth } from "./auth.ts";
import { getUserRoles, type Role } from "./roles.ts";

/**
 * API tokens: a signed-in user gets a short-lived JWT from Better Auth's
 * jwt plugin (GET /api/auth/token with the session cookie); API routes accept it as
 * `Authorization: Bearer <jwt>` and verify it here against our own JWKS (the keys
 * served at /.well-known/jwks.json) with jose: signature, issuer, audience, expiry.
 * Tokens are stateless: signing out does not revoke one already issued, which is why
 * they live 15 minutes only.
 */

export const API_TOKEN_ALGORITHM = "EdDSA";
export const API_TOKEN_LIFETIME_SECONDS = 15 * 60;
/** Clocks of this server and of whoever holds a token may differ by this much. */
export const API_TOKEN_CLOCK_SKEW_SECONDS = 60;
/** How long the public keys may be cached by clients and by this process. */
export const JWKS_MAX_AGE_SECONDS = 5 * 60;

/** The jwt plugin's options (used by auth.ts), so issuing and verifying agree on every claim. */
export function apiTokenJwtOptions(config: Pick<Config, "publicOrigin">) {
  return {
    jwks: { keyPairConfig: { alg: API_TOKEN_ALGORITHM, crv: "Ed25519" } },
    jwt: {
      issuer: config.publicOrigin,
      audience: config.publicOrigin,
      expirationTime: `${API_TOKEN_LIFETIME_SECONDS}s`,
      // The subject is the user id; name and email are for the client's convenience.
      // Roles are not in the token: /api/me reads them fresh from the database.
      definePayload: ({ user }) => ({ email: user.email, name: user.name }),
    },
    // Better Auth would otherwise sign a JWT on every session lookup (set-auth-jwt header).
    disableSettingJwtHeader: true,
  } satisfies JwtOptions;
}

export interface ApiTokenUser {
  id: string;
  email: string;
  name: string;
  roles: Role[];
}

/** Why a request's token was refused: each answers 401 with `{ error: message }`. */
export class ApiTokenError extends Error {
  readonly status = 401;
  /** RFC 6750 error code for the WWW-Authenticate header. */
  readonly code: "invalid_request" | "invalid_token";

  constructor(message: string, code: "invalid_request" | "invalid_token" = "invalid_token") {
    super(message);
    this.name = "ApiTokenError";
    this.code = code;
  }
}

export const INVALID_SIGNATURE_MESSAGE = "Invalid JWT signature";
export const MISSING_TOKEN_MESSAGE = "Authentication required: send an API token as 'Authorization: Bearer <token>'.";

interface CachedKeys {
  keys: JSONWebKeySet;
  fetchedAt: number;
}

/** The public keys per Better Auth instance (one per process, several in tests). */
const keyCache = new WeakMap<object, CachedKeys>();
/** A token signed by a key we do not know yet refetches the keys, at most this often. */
const REFETCH_MIN_INTERVAL_MS = 10_000;

/** Our public keys, as served at /.well-known/jwks.json (created on first use). */
export async function getPublicKeys(auth: BastionAuth): Promise<JSONWebKeySet> {
  const result = (await auth.api.getJwks()) as JSONWebKeySet;
  return { keys: result.keys };
}

async function cachedKeys(auth: BastionAuth, refresh: boolean): Promise<JSONWebKeySet> {
  const cached = keyCache.get(auth);
  const now = Date.now();
  const fresh = cached && now - cached.fetchedAt < JWKS_MAX_AGE_SECONDS * 1000;
  const mayRefetch = !cached || now - cached.fetchedAt >= REFETCH_MIN_INTERVAL_MS;
  if (cached && fresh && !(refresh && mayRefetch)) return cached.keys;
  const keys = await getPublicKeys(auth);
  keyCache.set(auth, { keys, fetchedAt: now });
  return keys;
}

/** The bearer token of the request; throws ApiTokenError when there is none. */
export function bearerToken(request: Request): string {
  const header = request.headers.get("authorization")?.trim();
  if (!header) throw new ApiTokenError(MISSING_TOKEN_MESSAGE, "invalid_request");
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match?.[1]) throw new ApiTokenError("The Authorization header must be 'Bearer <token>'.", "invalid_request");
  return match[1];
}

/** Verifies the token against our keys and configured claims; returns its payload. */
export async function verifyApiToken(
  services: { auth: BastionAuth; config: Pick<Config, "publicOrigin"> },
  token: string,
): Promise<JWTPayload & { sub: string }> {
  const { auth, config } = services;
  const options = {
    issuer: config.publicOrigin,
    audience: config.publicOrigin,
    algorithms: [API_TOKEN_ALGORITHM],
    requiredClaims: ["sub", "exp", "iat"],
    // A token lives as long as we issue it for, counted from its iat (an iat in the
    // future fails too): one signed with a longer exp, by a leaked key or a plugin
    // default, is not honoured for longer.
    maxTokenAge: API_TOKEN_LIFETIME_SECONDS,
    clockTolerance: API_TOKEN_CLOCK_SKEW_SECONDS,
  };
  const attempt = async (refresh: boolean) =>
    jwtVerify(token, createLocalJWKSet(await cachedKeys(auth, refresh)), options);
  try {
    let result: Awaited<ReturnType<typeof attempt>>;
    try {
      result = await attempt(false);
    } catch (error) {
      // A key created or rotated since the keys were cached: look once more.
      if (!(error instanceof errors.JWKSNoMatchingKey)) throw error;
      result = await attempt(true);
    }
    const { payload } = result;
    if (typeof payload.sub !== "string" || payload.sub === "") throw new ApiTokenError("The token has no subject.");
    if ((payload.exp as number) - (payload.iat as number) > API_TOKEN_LIFETIME_SECONDS + API_TOKEN_CLOCK_SKEW_SECONDS) {
      throw new ApiTokenError(
        `Invalid token claims: exp is more than ${API_TOKEN_LIFETIME_SECONDS / 60} minutes after iat.`,
      );
    }
    return payload as JWTPayload & { sub: string };
  } catch (error) {
    throw toApiTokenError(error);
  }
}

function toApiTokenError(error: unknown): ApiTokenError {
  if (error instanceof ApiTokenError) return error;
  // A signature made with a key that is not ours (or not ours any more) does not verify either.
  // So does one "signed" with no algorithm or another one (alg none, HS256 with our public
  // key as the secret): the caller learns only that the signature is not ours.
  if (
    error instanceof errors.JWSSignatureVerificationFailed ||
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JOSEAlgNotAllowed ||
    error instanceof errors.JOSENotSupported
  ) {
    return new ApiTokenError(INVALID_SIGNATURE_MESSAGE);
  }
  if (error instanceof errors.JWTExpired) return new ApiTokenError("The token has expired: request a new one.");
  if (error instanceof errors.JWTClaimValidationFailed) {
    return new ApiTokenError(
      `Invalid token claims: ${error.claim} ${error.reason === "missing" ? "is missing" : "does not match"}.`,
    );
  }
  if (
    error instanceof errors.JWSInvalid ||
    error instanceof errors.JWTInvalid ||
    error instanceof errors.JWKSMultipleMatchingKeys
  ) {
    return new ApiTokenError("Malformed token: expected a JWT issued by /api/auth/token.");
  }
  throw error;
}

/**
 * The user an API request acts for: its token verified and the user read fresh from
 * the database (a deleted account's tokens stop working at once, roles are current).
 */
export async function authenticateApiRequest(
  services: { auth: BastionAuth; config: Pick<Config, "publicOrigin">; db: Kysely<Database>; logger: Logger },
  request: Request,
): Promise<ApiTokenUser> {
  const payload = await verifyApiToken(services, bearerToken(request));
  const context = await services.auth.$context;
  const user = await context.internalAdapter.findUserById(payload.sub);
  if (!user) throw new ApiTokenError("The token's account no longer exists.");
  const roles = await getUserRoles(services, user.id);
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    // As stored in user_roles (one role per user); an admin may do all an editor may.
    roles: roles.isAdmin ? ["admin"] : roles.isEditor ? ["editor"] : [],
  };
}

/** The 401 answer for a refused token: JSON `{ error }` plus an RFC 6750 challenge. */
export function apiTokenErrorResponse(error: ApiTokenError): Response {
  const description = error.message.replace(/["\\]/g, "'");
  const challenge =
    error.code === "invalid_request" && error.message === MISSING_TOKEN_MESSAGE
      ? 'Bearer realm="Bastion"'
      : `Bearer realm="Bastion", error="${error.code}", error_description="${description}"`;
  return Response.json(
    { error: error.message },
    { status: error.status, headers: { "WWW-Authenticate": challenge, "Cache-Control": "no-store" } },
  );
}
