import { defineRequestState } from "@better-auth/core/context";
import { APIError, getSessionFromCtx } from "better-auth/api";
import type { Kysely } from "kysely";
import { recordAudit } from "../audit/audit-log.ts";
import type { Database } from "../db/schema.ts";

/**
 * Audit rows for the account changes a user makes to their own account (the spec asks for
 * "an audit log row for every … account change"). They are written from Better
 * Auth's hooks, so a change is recorded however it was made: through the account
 * page's forms, its passkey script, or a direct call to /api/auth/*.
 * (Password changes are recorded by auth.ts itself, with the other password paths.)
 */

/**
 * Whether the signed-in user's authenticator app was waiting for its first code when
 * /two-factor/verify-totp was called: a correct code then turns it on. Read before the
 * endpoint runs, since the endpoint marks the enrolment confirmed.
 */
const totpWasPending = defineRequestState<{ pending: boolean }>(() => ({ pending: false }));

/** For hooks.before: what the after hook needs to know of the state before the change. */
export async function noteStateBeforeAccountChange(ctx: Parameters<typeof getSessionFromCtx>[0]): Promise<void> {
  if (ctx.path !== "/two-factor/verify-totp") return;
  const session = await getSessionFromCtx(ctx);
  if (!session) return;
  const row = await ctx.context.adapter.findOne<{ verified?: boolean | null }>({
    model: "twoFactor",
    where: [{ field: "userId", value: session.user.id }],
  });
  (await totpWasPending.get()).pending = row?.verified === false;
}

/** Whether the endpoint answered with success. */
export function succeeded(ctx: Pick<AuthHookContext, "context">): boolean {
  const returned = ctx.context.returned;
  if (returned instanceof APIError || returned instanceof Error) return false;
  return !(returned instanceof Response && !returned.ok);
}

/** The phone factor's rows, written by phone-factor-endpoints.ts where the change is known. */
export async function auditPhoneFactor(
  db: Kysely<Database>,
  userId: string,
  change: "enabled" | "removed",
): Promise<void> {
  await recordAudit(db, { userId, action: `account.phone-factor-${change}`, entity: "user", entityId: userId });
}

/** The parts of Better Auth's hook context read here. */
export interface AuthHookContext {
  path: string;
  body?: Record<string, unknown>;
  context: {
    returned?: unknown;
    session?: { user: { id: string }; session?: { id: string } | null } | null;
  };
}

/** Paths through which a user ends their own sessions on purpose. */
const REVOKE_PATHS = new Set(["/revoke-session", "/revoke-other-sessions", "/revoke-sessions"]);

/** For hooks.after: one row per successful account change. */
export async function auditAccountChange(db: Kysely<Database>, ctx: AuthHookContext): Promise<void> {
  if (!succeeded(ctx)) return;
  const returned = ctx.context.returned;
  const userId = ctx.context.session?.user.id ?? null;
  if (!userId) return;
  const body = (ctx.body ?? {}) as Record<string, unknown>;

  switch (ctx.path) {
    case "/update-user":
      if (typeof body.name === "string") {
        await recordAudit(db, {
          userId,
          action: "account.name-changed",
          entity: "user",
          entityId: userId,
          details: { name: body.name },
        });
      }
      return;
    case "/two-factor/verify-totp":
      // Signed in, and the app was waiting for its first code: the code confirmed the
      // enrolment. A code checked again later, or at sign-in (no session yet), is not a change.
      if (ctx.context.session?.session && (await totpWasPending.get()).pending) {
        await recordAudit(db, { userId, action: "account.two-factor-enabled", entity: "user", entityId: userId });
      }
      return;
    case "/two-factor/disable":
      await recordAudit(db, { userId, action: "account.two-factor-disabled", entity: "user", entityId: userId });
      return;
    case "/two-factor/generate-backup-codes":
      await recordAudit(db, {
        userId,
        action: "account.backup-codes-regenerated",
        entity: "user",
        entityId: userId,
      });
      return;
    case "/passkey/verify-registration": {
      const passkey = returned as { id?: string; name?: string | null } | undefined;
      await recordAudit(db, {
        userId,
        action: "account.passkey-added",
        entity: "passkey",
        entityId: passkey?.id ?? null,
        details: passkey?.name ? { name: passkey.name } : {},
      });
      return;
    }
    case "/passkey/update-passkey":
      await recordAudit(db, {
        userId,
        action: "account.passkey-renamed",
        entity: "passkey",
        entityId: typeof body.id === "string" ? body.id : null,
        details: { name: body.name },
      });
      return;
    case "/passkey/delete-passkey":
      await recordAudit(db, {
        userId,
        action: "account.passkey-removed",
        entity: "passkey",
        entityId: typeof body.id === "string" ? body.id : null,
      });
      return;
  }
}

/** For databaseHooks.session.delete.after: a session ended by its owner from the session list. */
export async function auditSessionDeleted(
  db: Kysely<Database>,
  session: { id: string; userId: string },
  ctx: { path?: string } | null,
): Promise<void> {
  if (!ctx?.path || !REVOKE_PATHS.has(ctx.path)) return;
  await recordAudit(db, {
    userId: session.userId,
    action: "account.session-revoked",
    entity: "session",
    entityId: session.id,
  });
}
