import { createHmac, generateKeyPairSync, sign } from "node:crypto";
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, type JSONWebKeySet, jwtVerify } from "jose";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../server/config.ts";
import { openDatabase } from "../../server/db/connection.ts";
import { createAuthForDatabase } from "../../server/services.ts";
import { type SiteWithAccounts, signIn, startSiteWithAccounts } from "../helpers/accounts.ts";
import { TEST_DIALECTS } from "../helpers/databases.ts";

/**
 * API tokens: a signed-in user gets a short-lived JWT from
 * GET /api/auth/token; /.well-known/jwks.json serves the keys that verify it; /api/me
 * accepts it as a bearer token; a token whose signature does not verify answers 401
 * "Invalid JWT signature"; missing, malformed, expired and foreign tokens answer 401 too.
 */

const EDITOR = { email: "tess.token@example.com", name: "Tess Token", role: "editor" as const };
const ADMIN = { email: "andy.admin@example.com", name: "Andy Admin", role: "admin" as const };

function base64url(bytes: Buffer | string): string {
  return Buffer.from(bytes).toString("base64url");
}

/** The same header and payload, signed again with an Ed25519 key that is not ours. */
function resignedWithAnotherKey(token: string): string {
  const [header, payload] = token.split(".") as [string, string, string];
  const { privateKey } = generateKeyPairSync("ed25519");
  const signature = sign(null, Buffer.from(`${header}.${payload}`), privateKey);
  return `${header}.${payload}.${base64url(signature)}`;
}

/** One byte of the signature changed. */
function withFlippedSignatureByte(token: string): string {
  const [header, payload, signature] = token.split(".") as [string, string, string];
  const bytes = Buffer.from(signature, "base64url");
  bytes[10] = (bytes[10] as number) ^ 0x01;
  return `${header}.${payload}.${base64url(bytes)}`;
}

/** Claims changed (another subject), our signature of the original kept. */
function withAlteredPayload(token: string, changes: Record<string, unknown>): string {
  const [header, payload, signature] = token.split(".") as [string, string, string];
  const claims = { ...JSON.parse(Buffer.from(payload, "base64url").toString("utf8")), ...changes };
  return `${header}.${base64url(JSON.stringify(claims))}.${signature}`;
}

async function getMe(baseUrl: string, authorization?: string) {
  const response = await fetch(`${baseUrl}/api/me`, {
    headers: authorization === undefined ? {} : { Authorization: authorization },
  });
  const body = (await response.json()) as Record<string, unknown>;
  return { response, body };
}

describe.each(TEST_DIALECTS)("API tokens on %s", (dialect) => {
  let site: SiteWithAccounts;
  let baseUrl: string;
  let editorCookie: string;
  let editorToken: string;

  /** Signs a token with the server's own key (same database and secret), for claims a client cannot get. */
  async function signWithServerKey(payload: Record<string, unknown>): Promise<string> {
    const config = loadConfig({
      DATA_DIR: site.server.dataDir,
      DATABASE_URL: site.server.databaseUrl,
      PUBLIC_URL: baseUrl,
      LOG_LEVEL: "error",
    });
    const database = openDatabase(config.database);
    const { auth, close } = createAuthForDatabase(config, database, pino({ level: "silent" }));
    try {
      const { token } = (await auth.api.signJWT({ body: { payload } })) as { token: string };
      return token;
    } finally {
      await close();
      await database.close();
    }
  }

  beforeAll(async () => {
    site = await startSiteWithAccounts({ dialect, accounts: [EDITOR, ADMIN] });
    baseUrl = site.server.url;
    editorCookie = await signIn(baseUrl, EDITOR.email);
  });

  afterAll(async () => {
    await site?.stop();
  });

  it("issues a short-lived EdDSA JWT to a signed-in user at GET /api/auth/token", async () => {
    const response = await fetch(`${baseUrl}/api/auth/token`, { headers: { Cookie: editorCookie } });
    expect(response.status).toBe(200);
    const { token } = (await response.json()) as { token: string };
    editorToken = token;

    const header = decodeProtectedHeader(token);
    expect(header.alg).toBe("EdDSA");
    expect(typeof header.kid).toBe("string");
    const claims = decodeJwt(token);
    expect(claims.sub).toBe(site.users.get(EDITOR.email)?.id);
    expect(claims.iss).toBe(baseUrl);
    expect(claims.aud).toBe(baseUrl);
    expect(claims.email).toBe(EDITOR.email);
    expect((claims.exp as number) - (claims.iat as number)).toBe(15 * 60);
  });

  it("issues no token without a session", async () => {
    const response = await fetch(`${baseUrl}/api/auth/token`);
    expect(response.status).toBe(401);
  });

  it("serves the public keys at /.well-known/jwks.json, and they verify the token", async () => {
    const response = await fetch(`${baseUrl}/.well-known/jwks.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/jwk-set\+json/);
    expect(response.headers.get("cache-control")).toMatch(/public, max-age=\d+/);
    const jwks = (await response.json()) as JSONWebKeySet;
    expect(jwks.keys.length).toBeGreaterThan(0);
    for (const key of jwks.keys) {
      expect(key).toMatchObject({ kty: "OKP", crv: "Ed25519", alg: "EdDSA" });
      // Public parts only.
      expect(key).not.toHaveProperty("d");
    }

    const { payload, protectedHeader } = await jwtVerify(editorToken, createLocalJWKSet(jwks), {
      issuer: baseUrl,
      audience: baseUrl,
      algorithms: ["EdDSA"],
    });
    expect(payload.sub).toBe(site.users.get(EDITOR.email)?.id);
    expect(jwks.keys.map((key) => key.kid)).toContain(protectedHeader.kid);
  });

  it("answers GET /api/me with the token's user and roles", async () => {
    const { response, body } = await getMe(baseUrl, `Bearer ${editorToken}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(body).toEqual({
      id: site.users.get(EDITOR.email)?.id,
      email: EDITOR.email,
      name: EDITOR.name,
      roles: ["editor"],
    });

    const adminCookie = await signIn(baseUrl, ADMIN.email);
    const tokenResponse = await fetch(`${baseUrl}/api/auth/token`, { headers: { Cookie: adminCookie } });
    const { token: adminToken } = (await tokenResponse.json()) as { token: string };
    const admin = await getMe(baseUrl, `Bearer ${adminToken}`);
    expect(admin.response.status).toBe(200);
    expect(admin.body).toMatchObject({ email: ADMIN.email, roles: ["admin"] });
  });

  it("refuses a token re-signed with another EdDSA key: 401 Invalid JWT signature", async () => {
    const forged = resignedWithAnotherKey(editorToken);
    const { response, body } = await getMe(baseUrl, `Bearer ${forged}`);
    expect(response.status).toBe(401);
    expect(body).toEqual({ error: "Invalid JWT signature" });
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer .*error="invalid_token"/);
  });

  it("refuses a token with a flipped signature byte: 401 Invalid JWT signature", async () => {
    const { response, body } = await getMe(baseUrl, `Bearer ${withFlippedSignatureByte(editorToken)}`);
    expect(response.status).toBe(401);
    expect(body).toEqual({ error: "Invalid JWT signature" });
  });

  it("refuses a token whose claims were changed after signing: 401 Invalid JWT signature", async () => {
    const adminId = site.users.get(ADMIN.email)?.id;
    const { response, body } = await getMe(baseUrl, `Bearer ${withAlteredPayload(editorToken, { sub: adminId })}`);
    expect(response.status).toBe(401);
    expect(body).toEqual({ error: "Invalid JWT signature" });
  });

  it("refuses a token naming a key we do not have: 401 Invalid JWT signature", async () => {
    const [, payload] = editorToken.split(".") as [string, string];
    const header = base64url(JSON.stringify({ alg: "EdDSA", kid: "not-our-key" }));
    const { privateKey } = generateKeyPairSync("ed25519");
    const signature = base64url(sign(null, Buffer.from(`${header}.${payload}`), privateKey));
    const { response, body } = await getMe(baseUrl, `Bearer ${header}.${payload}.${signature}`);
    expect(response.status).toBe(401);
    expect(body).toEqual({ error: "Invalid JWT signature" });
  });

  it("refuses an unsigned token (alg none)", async () => {
    const [, payload] = editorToken.split(".") as [string, string];
    const header = base64url(JSON.stringify({ alg: "none" }));
    const { response, body } = await getMe(baseUrl, `Bearer ${header}.${payload}.`);
    expect(response.status).toBe(401);
    expect(body).toEqual({ error: "Invalid JWT signature" });
  });

  it("refuses a token MACed with HS256 using our public key as the secret: Invalid JWT signature", async () => {
    const [, payload] = editorToken.split(".") as [string, string];
    const jwks = (await (await fetch(`${baseUrl}/.well-known/jwks.json`)).json()) as JSONWebKeySet;
    const header = base64url(JSON.stringify({ alg: "HS256", kid: jwks.keys[0]?.kid }));
    const secret = JSON.stringify(jwks.keys[0]);
    const mac = base64url(createHmac("sha256", secret).update(`${header}.${payload}`).digest());
    const { response, body } = await getMe(baseUrl, `Bearer ${header}.${payload}.${mac}`);
    expect(response.status).toBe(401);
    expect(body).toEqual({ error: "Invalid JWT signature" });
  });

  it("honours our own key's tokens only for the lifetime we issue, with a minute of clock skew", async () => {
    const sub = site.users.get(EDITOR.email)?.id;
    const now = Math.floor(Date.now() / 1000);
    const refused = {
      "a ten-year exp": { iat: now, exp: now + 10 * 365 * 86_400 },
      "an iat an hour ahead": { iat: now + 3600, exp: now + 3600 + 900 },
      "an iat twenty minutes ago": { iat: now - 1200, exp: now + 600 },
    };
    for (const [name, claims] of Object.entries(refused)) {
      const { response, body } = await getMe(baseUrl, `Bearer ${await signWithServerKey({ sub, ...claims })}`);
      expect(response.status, name).toBe(401);
      expect(String(body.error), name).toMatch(/^(Invalid token claims|The token has expired)/);
    }
    const skewed = await signWithServerKey({ sub, iat: now + 30, exp: now + 30 + 900 });
    expect((await getMe(baseUrl, `Bearer ${skewed}`)).response.status).toBe(200);
  });

  it("refuses a request without a token, and does not accept the session cookie instead", async () => {
    const anonymous = await getMe(baseUrl);
    expect(anonymous.response.status).toBe(401);
    expect(anonymous.body.error).toMatch(/Authorization: Bearer/);
    expect(anonymous.response.headers.get("www-authenticate")).toBe('Bearer realm="Bastion"');

    const response = await fetch(`${baseUrl}/api/me`, { headers: { Cookie: editorCookie } });
    expect(response.status).toBe(401);
  });

  it("refuses a malformed token and a header of another scheme", async () => {
    const malformed = await getMe(baseUrl, "Bearer not-a-jwt");
    expect(malformed.response.status).toBe(401);
    expect(malformed.body.error).toMatch(/^Malformed token/);

    const basic = await getMe(baseUrl, `Basic ${base64url("user:pass")}`);
    expect(basic.response.status).toBe(401);
    expect(basic.body.error).toMatch(/Bearer/);
  });

  it("refuses an expired token signed with our own key", async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = await signWithServerKey({
      sub: site.users.get(EDITOR.email)?.id,
      iat: now - 3600,
      exp: now - 1800,
    });
    const { response, body } = await getMe(baseUrl, `Bearer ${expired}`);
    expect(response.status).toBe(401);
    expect(body.error).toMatch(/expired/i);
  });

  it("refuses a token of ours issued for another audience", async () => {
    const now = Math.floor(Date.now() / 1000);
    const foreign = await signWithServerKey({
      sub: site.users.get(EDITOR.email)?.id,
      iat: now,
      exp: now + 600,
      aud: "https://elsewhere.example",
    });
    const { response, body } = await getMe(baseUrl, `Bearer ${foreign}`);
    expect(response.status).toBe(401);
    expect(body.error).toMatch(/^Invalid token claims: aud/);
  });
});
