import type { GenericEndpointContext } from "@better-auth/core";
import { defineRequestState } from "@better-auth/core/context";
import { getSessionFromCtx } from "better-auth/api";
import type { Kysely } from "kysely";
import { recordAudit } from "../audit/audit-log.ts";
import type { Database } from "../db/schema.ts";
import { type AuthHookContext, succeeded } from "./account-audit.ts";
import { pendingSignInUserId } from "./phone-factor-endpoints.ts";

/**
 * Wrong codes at a sign-in's second step (authenticator, texted or backup code): whoever
 * holds the password and guesses codes leaves a row per attempt. Recorded as their own
 * action, apart from `auth.sign-in-failed`: those count toward the password lock
 * (sign-in-guard.ts), which a wrong code must not feed, since the password was right.
 * A code checked while signed in (confirming an enrolment) is no sign-in and is not
 * recorded here.
 */

const SECOND_FACTOR_PATH_PREFIX = "/two-factor/verify-";

/**
 * The sign-in a verify call answers: read before the endpoint runs, since a challenge
 * that has used up its attempts is deleted with the refusal.
 */
const challenge = defineRequestState<{ signIn: boolean; userId: string | null }>(() => ({
  signIn: false,
  userId: null,
}));

/** For hooks.before: notes whose sign-in a second-factor code is for. */
export async function noteSecondFactorChallenge(ctx: GenericEndpointContext): Promise<void> {
  if (!ctx.path?.startsWith(SECOND_FACTOR_PATH_PREFIX)) return;
  if (await getSessionFromCtx(ctx)) return;
  const state = await challenge.get();
  state.signIn = true;
  state.userId = await pendingSignInUserId(ctx);
}

/** For hooks.after: one row for a second-factor code refused at sign-in. */
export async function auditSecondFactorFailure(db: Kysely<Database>, ctx: AuthHookContext, ip: string): Promise<void> {
  if (!ctx.path?.startsWith(SECOND_FACTOR_PATH_PREFIX) || succeeded(ctx)) return;
  const { signIn, userId } = await challenge.get();
  if (!signIn) return;
  const returned = ctx.context.returned as { body?: { code?: unknown } } | undefined;
  await recordAudit(db, {
    userId,
    action: "auth.second-factor-failed",
    entity: "user",
    entityId: userId,
    details: { method: ctx.path, reason: returned?.body?.code ?? null, ip },
  });
}
