import type { BetterAuthPlugin } from "@better-auth/core";
import { createAuthEndpoint, createAuthMiddleware } from "@better-auth/core/api";
import { APIError } from "@better-auth/core/error";
import type { Kysely } from "kysely";
import { z } from "zod";
import { recordAudit } from "../audit/audit-log.ts";
import type { Database } from "../db/schema.ts";
import { Invalid, NotFound } from "../errors.ts";
import { acceptInvitation, completeOwnerSetup } from "./invitations.ts";
import type { UserSummary } from "./users.ts";

/**
 * Bastion's own part of Better Auth.
 *
 * Account creation through a link (an invitation, or the owner-setup link) as Better
 * Auth endpoints, so that its rate limiter, stored in the database and shared by every
 * instance, counts the attempts exactly as it does sign-ins. The /auth/invite and
 * /auth/setup forms post to route actions that call these through Better Auth's
 * handler. Sign-up stays closed: without a valid link nothing is created.
 *
 * Also the audit row of a sign-out, with its user (known only before Better Auth deletes
 * the session).
 */

export const ACCEPT_INVITATION_PATH = "/invitation/accept";
export const OWNER_SETUP_PATH = "/owner-setup";

/** Attempts per client IP and window on each of the two endpoints. */
const LINK_RATE_LIMIT = { window: 10 * 60, max: 10 };

const text = z.string().max(1000);

/**
 * The services' refusals as Better Auth answers them (a 400 either way, so that a bad
 * link and a bad password look alike to a prober): code NOT_FOUND for a link that
 * does not work, INVALID with the message of each field otherwise.
 */
function refusal(error: unknown): never {
  if (error instanceof NotFound) throw new APIError("BAD_REQUEST", { message: error.message, code: "NOT_FOUND" });
  if (error instanceof Invalid) {
    throw new APIError("BAD_REQUEST", { message: error.message, code: "INVALID", fields: error.fields });
  }
  throw error;
}

const created = (user: UserSummary) => ({ user: { id: user.id, email: user.email, name: user.name } });

export function accountLinkEndpoints(options: { db: Kysely<Database> }) {
  return {
    id: "bastion-account-links",
    endpoints: {
      acceptInvitation: createAuthEndpoint(
        ACCEPT_INVITATION_PATH,
        { method: "POST", body: z.object({ token: text, name: text, password: text }) },
        async (ctx) => {
          const services = { auth: { $context: Promise.resolve(ctx.context) }, db: options.db };
          const user = await acceptInvitation(services, ctx.body).catch(refusal);
          return ctx.json(created(user));
        },
      ),
      completeOwnerSetup: createAuthEndpoint(
        OWNER_SETUP_PATH,
        { method: "POST", body: z.object({ token: text, name: text, email: text, password: text }) },
        async (ctx) => {
          const services = { auth: { $context: Promise.resolve(ctx.context) }, db: options.db };
          const user = await completeOwnerSetup(services, ctx.body).catch(refusal);
          return ctx.json(created(user));
        },
      ),
    },
    hooks: {
      before: [
        {
          // Sign-out: who it was is known only before the session is deleted.
          matcher: (ctx) => ctx.path === "/sign-out",
          handler: createAuthMiddleware(async (ctx) => {
            const token = await ctx.getSignedCookie(ctx.context.authCookies.sessionToken.name, ctx.context.secret);
            const found = token ? await ctx.context.internalAdapter.findSession(token).catch(() => null) : null;
            await recordAudit(options.db, {
              userId: found?.session.userId ?? null,
              action: "auth.sign-out",
              entity: "session",
              entityId: found?.session.id ?? null,
            });
          }),
        },
      ],
    },
    rateLimit: [
      {
        pathMatcher: (path: string) => path === ACCEPT_INVITATION_PATH || path === OWNER_SETUP_PATH,
        ...LINK_RATE_LIMIT,
      },
    ],
  } satisfies BetterAuthPlugin;
}
